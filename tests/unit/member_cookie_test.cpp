// The session cookie read from a Cookie header, written in Set-Cookie, and
// the Origin a state-changing browser request must carry.
#include "http/server/member_cookie.hpp"

#include <gtest/gtest.h>

namespace vcs::http {
namespace {

TEST(MemberCookie, FindsTheSessionAmongOtherCookies) {
  EXPECT_EQ(session_cookie("__Host-vcs_session=abc", session_kind::console), "abc");
  EXPECT_EQ(session_cookie("theme=dark; __Host-vcs_session=abc; lang=en", session_kind::console),
            "abc");
  EXPECT_EQ(session_cookie("theme=dark;__Host-vcs_session=abc", session_kind::console), "abc");
  EXPECT_EQ(session_cookie("", session_kind::console), "");
  EXPECT_EQ(session_cookie("vcs_session=abc", session_kind::console), "")
      << "only the __Host- cookie counts";
  EXPECT_EQ(session_cookie("x__Host-vcs_session=abc", session_kind::console), "");
  EXPECT_EQ(session_cookie("__Host-vcs_session", session_kind::console), "");
}

TEST(MemberCookie, ThePortalsCookieCountsAloneOrWhenTheRequestSaysSo) {
  const std::string both = "__Host-vcs_session=c; __Host-vcs_portal=p";
  EXPECT_EQ(chosen_session(both, "").token, "c");
  EXPECT_EQ(chosen_session(both, "").kind, session_kind::console);
  EXPECT_EQ(chosen_session(both, "portal").token, "p");
  EXPECT_EQ(chosen_session(both, "portal").kind, session_kind::portal);
  EXPECT_EQ(chosen_session("__Host-vcs_portal=p", "").kind, session_kind::portal);
  EXPECT_EQ(chosen_session("__Host-vcs_session=c", "portal").kind, session_kind::console)
      << "no portal cookie: the console's";
  EXPECT_EQ(chosen_session("theme=dark", "portal").token, "");
  EXPECT_EQ(session_cookie_header(session_kind::portal, "t", 60).rfind("__Host-vcs_portal=t;", 0),
            0u);
}

TEST(MemberCookie, IsHostOnlySecureHttpOnlyAndLax) {
  const auto set = session_cookie_header(session_kind::console, "tok", 43200);
  EXPECT_EQ(set, "__Host-vcs_session=tok; Path=/; Max-Age=43200; Secure; HttpOnly; SameSite=Lax");
  EXPECT_NE(ended_session_cookie_header(session_kind::console).find("Max-Age=0"),
            std::string::npos);
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
