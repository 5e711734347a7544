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

} // namespace
} // namespace vcs::domain
