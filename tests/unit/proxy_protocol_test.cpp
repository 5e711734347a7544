#include "http/server/proxy_protocol.hpp"

#include <string>

#include <gtest/gtest.h>

namespace vcs::http {
namespace {

const std::string signature{"\r\n\r\n\0\r\nQUIT\n", 12};

// A version 2 header: command (0 LOCAL, 1 PROXY), family, then the address
// block as given.
std::string header(unsigned char command, unsigned char family, const std::string& block) {
  std::string out = signature;
  out += static_cast<char>(0x20 | command);
  out += static_cast<char>(family);
  out += static_cast<char>(block.size() >> 8);
  out += static_cast<char>(block.size() & 0xff);
  return out + block;
}

std::string ipv4_block() {
  // 203.0.113.7:40000 -> 10.0.0.1:8080
  return std::string{"\xcb\x00\x71\x07\x0a\x00\x00\x01\x9c\x40\x1f\x90", 12};
}

TEST(ProxyProtocol, AnIpv4HeaderNamesItsSourceAndItsLength) {
  const auto bytes = header(1, 0x11, ipv4_block()) + "GET / HTTP/1.1\r\n";
  const auto read = parse_proxy_header(bytes);
  ASSERT_EQ(read.is, proxy_header::outcome::read);
  EXPECT_EQ(read.length, 28u);
  ASSERT_TRUE(read.source);
  EXPECT_EQ(read.source->to_string(), "203.0.113.7");
}

TEST(ProxyProtocol, AnIpv6HeaderWithTlvsNamesItsSource) {
  std::string block(36, '\0');
  block[0] = '\x20';
  block[1] = '\x01';
  block[2] = '\x0d';
  block[3] = '\xb8';
  block[15] = '\x07';
  block += std::string{"\x04\x00\x01\x00", 4}; // a NOOP TLV
  const auto read = parse_proxy_header(header(1, 0x21, block));
  ASSERT_EQ(read.is, proxy_header::outcome::read);
  EXPECT_EQ(read.length, 16u + 40u);
  ASSERT_TRUE(read.source);
  EXPECT_EQ(read.source->to_string(), "2001:db8::7");
}

TEST(ProxyProtocol, ALocalHeaderOrAnotherFamilyNamesNoClient) {
  const auto local = parse_proxy_header(header(0, 0x00, ""));
  ASSERT_EQ(local.is, proxy_header::outcome::read);
  EXPECT_EQ(local.length, 16u);
  EXPECT_FALSE(local.source);
  const auto unix_socket = parse_proxy_header(header(1, 0x31, std::string(216, 'x')));
  ASSERT_EQ(unix_socket.is, proxy_header::outcome::read);
  EXPECT_FALSE(unix_socket.source);
}

TEST(ProxyProtocol, EveryPrefixOfAHeaderAsksForMore) {
  const auto bytes = header(1, 0x11, ipv4_block());
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_EQ(parse_proxy_header(bytes.substr(0, n)).is, proxy_header::outcome::need_more) << n;
}

TEST(ProxyProtocol, PlainHttpIsNoHeader) {
  EXPECT_EQ(parse_proxy_header("GET /healthz HTTP/1.1\r\n").is, proxy_header::outcome::absent);
  EXPECT_EQ(parse_proxy_header("\r\n\r\nGET").is, proxy_header::outcome::absent);
  // Version 1's text form is not read: only version 2.
  EXPECT_EQ(parse_proxy_header("PROXY TCP4 203.0.113.7 10.0.0.1 40000 8080\r\n").is,
            proxy_header::outcome::absent);
}

TEST(ProxyProtocol, BrokenHeadersAreMalformed) {
  auto wrong_version = header(1, 0x11, ipv4_block());
  wrong_version[12] = '\x11';
  EXPECT_EQ(parse_proxy_header(wrong_version).is, proxy_header::outcome::malformed);
  EXPECT_EQ(parse_proxy_header(header(2, 0x11, ipv4_block())).is, proxy_header::outcome::malformed);
  EXPECT_EQ(parse_proxy_header(header(1, 0x11, ipv4_block().substr(0, 8))).is,
            proxy_header::outcome::malformed);
  EXPECT_EQ(parse_proxy_header(header(1, 0x21, std::string(20, '\0'))).is,
            proxy_header::outcome::malformed);
  // Longer than the most it may take: refused before its bytes are read.
  EXPECT_EQ(parse_proxy_header(header(1, 0x11, std::string(2'000, 'x')).substr(0, 16)).is,
            proxy_header::outcome::malformed);
}

} // namespace
} // namespace vcs::http
