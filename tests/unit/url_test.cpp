#include "domain/url.hpp"

#include <gtest/gtest.h>

#include <string>

namespace vcs::domain {
namespace {

TEST(HttpUrl, AcceptsAbsoluteHttpUrls) {
  for (const char* good :
       {"http://x", "https://example.com", "https://example.com:8443/hook?a=1",
        "HTTPS://Example.COM/Path", "http://127.0.0.1:8080/", "http://[::1]:8080/hook",
        "https://[2001:db8::1]", "https://api.example.co.uk/a/b#frag", "http://a-b.example/?q",
        "https://example.com/hook?sig=%2F%20&x=y", "http://localhost:65535"})
    EXPECT_TRUE(is_http_url(good)) << good;
}

TEST(HttpUrl, RejectsOtherSchemesAndMissingHosts) {
  for (const char* bad : {"ftp://x", "http://", "https://", "javascript:alert(1)", "example.com",
                          "//example.com", "http:/example.com", "http:example.com", "https:///path",
                          "http://?q", "http://#f", "mailto:a@example.com", "", "httpx://a"})
    EXPECT_FALSE(is_http_url(bad)) << '"' << bad << '"';
}

TEST(HttpUrl, RejectsWhitespaceAndControlCharacters) {
  for (const std::string& bad :
       {std::string{"http://exa mple.com"}, std::string{"http://example.com/a b"},
        std::string{" http://example.com"}, std::string{"http://example.com\n"},
        std::string{"http://example.com/\t"}, std::string{"http://example.com/\x7f"},
        std::string{"http://example.com/\0x", 21}, std::string{"http://ex\xC3\xA4mple.com"}})
    EXPECT_FALSE(is_http_url(bad)) << '"' << bad << '"';
}

TEST(HttpUrl, RejectsUserinfoAndMalformedHosts) {
  for (const char* bad :
       {"http://@", "http://@example.com", "http://user@example.com",
        "http://user:pass@example.com", "http://good.com\\@evil.com", "http://good.com@evil.com",
        "http://.example.com", "http://example..com", "http://example.com.", "http://-a.com",
        "http://a-.com", "http://exa_mple.com", "http://[::1", "http://[not-v6]", "http://[]",
        "http://[::1]x", "http://[fe80::1%25eth0]/"})
    EXPECT_FALSE(is_http_url(bad)) << '"' << bad << '"';
}

TEST(HttpUrl, PortMustBe1To65535) {
  for (const char* bad : {"http://example.com:", "http://example.com:0", "http://example.com:65536",
                          "http://example.com:123456", "http://example.com:8a",
                          "http://example.com:-1", "http://[::1]:", "http://example.com:80:80"})
    EXPECT_FALSE(is_http_url(bad)) << '"' << bad << '"';
  EXPECT_TRUE(is_http_url("http://example.com:1"));
}

// The one reader: what is sent where, for every URL the service handles.
TEST(HttpUrl, ReadsSchemeHostPortAndTarget) {
  const auto read = [](std::string_view text) {
    const auto u = parse_http_url(text);
    return u ? (u->tls ? "https " : "http ") + u->host + " " + std::to_string(u->port) + " " +
                   u->target
             : std::string{"refused"};
  };
  EXPECT_EQ(read("http://[::1]:8080/x"), "http ::1 8080 /x");
  EXPECT_EQ(read("https://Example.com/a?b"), "https Example.com 443 /a?b");
  EXPECT_EQ(read("HTTPS://example.com"), "https example.com 443 /");
  EXPECT_EQ(read("Http://example.com:443"), "http example.com 443 /");
  EXPECT_EQ(read("http://example.com?q"), "http example.com 80 /?q");
  EXPECT_EQ(read("http://example.com/p#f"), "http example.com 80 /p");
  EXPECT_EQ(read("http://example.com#f"), "http example.com 80 /");
  // Read as written, so the address policy judges every spelling.
  EXPECT_EQ(read("http://0x7f000001/"), "http 0x7f000001 80 /");
  EXPECT_EQ(read("http://a_b.example/"), "http a_b.example 80 /");
  for (const char* bad :
       {"http://u@h/", "http://evil.com\\@127.0.0.1/", "ftp://x", "example.com", "http://",
        "http://:80/", "http://h:99999/", "http://h:8o/", "http://h:/", "http://h:0/",
        "http://%31%32%37.0.0.1/", "http://[fe80::1%25eth0]/", "http://[example.com]/",
        "http://[::1]x/", "http://[::1/", "http://h/a b", "http://h/\r\nX-Injected: 1"})
    EXPECT_EQ(read(bad), "refused") << bad;
}

TEST(HttpUrl, IsHttpUrlTakesTheSchemeInAnyCase) {
  for (const char* good : {"HTTPS://example.com/hook", "HTTP://example.com", "hTTps://a.example"})
    EXPECT_TRUE(is_http_url(good)) << good;
}

} // namespace
} // namespace vcs::domain
