// The session cookie read from a Cookie header, written in Set-Cookie, and
// the Origin a state-changing browser request must carry.
#include "http/member_cookie.hpp"

#include <gtest/gtest.h>

namespace vcs::http {
namespace {

TEST(MemberCookie, FindsTheSessionAmongOtherCookies) {
  EXPECT_EQ(session_cookie("__Host-vcs_session=abc"), "abc");
  EXPECT_EQ(session_cookie("theme=dark; __Host-vcs_session=abc; lang=en"), "abc");
  EXPECT_EQ(session_cookie("theme=dark;__Host-vcs_session=abc"), "abc");
  EXPECT_EQ(session_cookie(""), "");
  EXPECT_EQ(session_cookie("vcs_session=abc"), "") << "only the __Host- cookie counts";
  EXPECT_EQ(session_cookie("x__Host-vcs_session=abc"), "");
  EXPECT_EQ(session_cookie("__Host-vcs_session"), "");
}

TEST(MemberCookie, IsHostOnlySecureHttpOnlyAndLax) {
  const auto set = session_cookie_header("tok", 43200);
  EXPECT_EQ(set, "__Host-vcs_session=tok; Path=/; Max-Age=43200; Secure; HttpOnly; SameSite=Lax");
  EXPECT_NE(ended_session_cookie_header().find("Max-Age=0"), std::string::npos);
}

TEST(MemberCookie, OnlyThisServicesOriginMayChangeAnything) {
  EXPECT_TRUE(same_origin("http://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_TRUE(same_origin("https://Voice.Example.com", "voice.example.com"));
  EXPECT_FALSE(same_origin("", "voice.example.com"));
  EXPECT_FALSE(same_origin("null", "voice.example.com"));
  EXPECT_FALSE(same_origin("https://voice.example.com.evil.test", "voice.example.com"));
  EXPECT_FALSE(same_origin("https://voice.example.com:444", "voice.example.com"));
  EXPECT_FALSE(same_origin("ftp://voice.example.com", "voice.example.com"));
  EXPECT_FALSE(same_origin("https://voice.example.com", ""));
  EXPECT_TRUE(changes_state("POST"));
  EXPECT_TRUE(changes_state("DELETE"));
  EXPECT_FALSE(changes_state("GET"));
  EXPECT_FALSE(changes_state("HEAD"));
}

} // namespace
} // namespace vcs::http
