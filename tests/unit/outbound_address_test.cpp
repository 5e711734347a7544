#include "domain/outbound_address.hpp"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

ip_address ip(std::string_view text) {
  const auto address = parse_ip_literal(text);
  EXPECT_TRUE(address) << text;
  return address.value_or(ip_address{});
}

bool contains(const std::optional<std::string>& message, std::string_view part) {
  return message && message->find(part) != std::string::npos;
}

outbound_policy policy(std::string_view allowed) {
  const auto parsed = outbound_policy::parse(allowed);
  EXPECT_TRUE(parsed) << allowed;
  return parsed.value_or(outbound_policy{});
}

TEST(OutboundAddress, EverySpellingOfAnInternalHostIsRefused) {
  const outbound_policy none;
  for (const char* host : {"127.0.0.1",
                           "localhost",
                           "LOCALHOST.",
                           "foo.localhost",
                           "::ffff:127.0.0.1",
                           "[::ffff:127.0.0.1]",
                           "169.254.169.254",
                           "10.0.0.5",
                           "2130706433",
                           "0x7f000001",
                           "127.1",
                           "0177.0.0.1",
                           "0",
                           "0.0.0.0",
                           "::",
                           "::1",
                           "fe80::1",
                           "fd12::1",
                           "100.64.0.1",
                           "224.0.0.1",
                           "255.255.255.255",
                           "192.168.1.1",
                           "172.16.0.1",
                           "172.31.255.255",
                           "64:ff9b::7f00:1",
                           "2002:7f00:1::",
                           "127.0.0.1.",
                           "0x7f.1",
                           "0x7f.0.0.1",
                           "[::1]",
                           "017700000001",
                           "0X7F000001",
                           "localhost..",
                           "Foo.LocalHost",
                           "::127.0.0.1",
                           "2001::1",
                           "2001:db8::1",
                           "fec0::1",
                           "ff02::1",
                           "100::1",
                           "192.0.2.1",
                           "198.18.0.1",
                           "240.0.0.1",
                           "3fff::1"})
    EXPECT_TRUE(none.refuse_host(host)) << host;
}

TEST(OutboundAddress, PublicAddressesAndNamesPass) {
  const outbound_policy none;
  for (const char* host : {"8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700::1111", "100.128.0.1",
                           "example.com", "hooks.example.org", "[2606:4700::1111]", "8.8.8.8.",
                           "localhost.example.com", "1.example", "0x.example"})
    EXPECT_EQ(none.refuse_host(host), std::nullopt) << host;
}

TEST(OutboundAddress, MalformedLiteralsAreRefusedAsInvalid) {
  const outbound_policy none;
  for (const char* host :
       {"256.1.1.1", "1.2.3.4.5", "0x1ffffffff", "1..2", "08.0.0.1", "4294967296", "127.0.0.1..",
        "1.2.3.0x100", "1.2.65536", "1.16777216", "example.123", "fe80::1%eth0", "[::1",
        "[127.0.0.1]", ":::", "0x7g.1", "0x", "8.8.8.0x"}) {
    EXPECT_EQ(parse_ip_literal(host), std::nullopt) << host;
    EXPECT_TRUE(looks_like_ip_literal(host)) << host;
    EXPECT_TRUE(contains(none.refuse_host(host), "not a valid address")) << host;
  }
  EXPECT_TRUE(none.refuse_host(""));
  EXPECT_TRUE(none.refuse_host("."));
  EXPECT_TRUE(contains(none.refuse_host("127.0.0.1 "), "spaces or control"));
  EXPECT_TRUE(none.refuse_host(std::string_view("8.8.8.8\0.1", 10)));
}

TEST(OutboundAddress, InetAtonSpellings) {
  EXPECT_EQ(ip("2130706433"), ip("127.0.0.1"));
  EXPECT_EQ(ip("0x7f000001"), ip("127.0.0.1"));
  EXPECT_EQ(ip("017700000001"), ip("127.0.0.1"));
  EXPECT_EQ(ip("127.1"), ip("127.0.0.1"));
  EXPECT_EQ(ip("10.1.1"), ip("10.1.0.1"));
  EXPECT_EQ(ip("10.1.258"), ip("10.1.1.2"));
  EXPECT_EQ(ip("10.65539"), ip("10.1.0.3"));
  EXPECT_EQ(ip("0x7f.0.0.1"), ip("127.0.0.1"));
  EXPECT_EQ(ip("0x7f.1"), ip("127.0.0.1"));
  EXPECT_EQ(ip("0177.0.0.01"), ip("127.0.0.1"));
  EXPECT_EQ(ip("127.0.0.1."), ip("127.0.0.1"));
  EXPECT_EQ(ip("0"), ip("0.0.0.0"));
  EXPECT_EQ(ip("4294967295"), ip("255.255.255.255"));
  EXPECT_EQ(ip("0xffffffff"), ip("255.255.255.255"));
  EXPECT_EQ(ip("[::ffff:127.0.0.1]"), ip("127.0.0.1"));
  EXPECT_EQ(ip("::FFFF:7F00:1"), ip("127.0.0.1"));
  EXPECT_EQ(parse_ip_literal("example.com"), std::nullopt);
  EXPECT_FALSE(looks_like_ip_literal("example.com"));
  EXPECT_FALSE(looks_like_ip_literal("localhost"));
}

TEST(OutboundAddress, ToStringAndFromBytes) {
  EXPECT_EQ(ip("0x7f000001").to_string(), "127.0.0.1");
  EXPECT_TRUE(ip("127.0.0.1").is_v4());
  EXPECT_FALSE(ip("::1").is_v4());
  EXPECT_EQ(ip("2001:0db8:0000:0000:0000:0000:0000:0001").to_string(), "2001:db8::1");
  EXPECT_EQ(ip("::").to_string(), "::");
  const unsigned char v4[] = {192, 168, 1, 1};
  EXPECT_EQ(ip_address_from_bytes(v4, 4), ip("192.168.1.1"));
  const unsigned char v6[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(ip_address_from_bytes(v6, 16), ip("fe80::1"));
  EXPECT_EQ(ip_address_from_bytes(v6, 5), ip("::"));
}

TEST(OutboundAddress, SpecialKinds) {
  EXPECT_EQ(special_address_kind(ip("0.1.2.3")), "unspecified");
  EXPECT_EQ(special_address_kind(ip("::")), "unspecified");
  EXPECT_EQ(special_address_kind(ip("127.9.9.9")), "loopback");
  EXPECT_EQ(special_address_kind(ip("::1")), "loopback");
  EXPECT_EQ(special_address_kind(ip("::ffff:127.0.0.1")), "loopback");
  EXPECT_EQ(special_address_kind(ip("172.20.0.1")), "private");
  EXPECT_EQ(special_address_kind(ip("fd12::1")), "private");
  EXPECT_EQ(special_address_kind(ip("169.254.169.254")), "link-local");
  EXPECT_EQ(special_address_kind(ip("fe80::1")), "link-local");
  EXPECT_EQ(special_address_kind(ip("100.127.255.255")), "shared address space (CGNAT)");
  EXPECT_EQ(special_address_kind(ip("239.1.1.1")), "multicast");
  EXPECT_EQ(special_address_kind(ip("ff05::2")), "multicast");
  EXPECT_EQ(special_address_kind(ip("255.255.255.255")), "broadcast");
  EXPECT_EQ(special_address_kind(ip("255.255.255.254")), "reserved");
  EXPECT_EQ(special_address_kind(ip("203.0.113.9")), "reserved");
  EXPECT_EQ(special_address_kind(ip("64:ff9b::808:808")), "reserved");
  EXPECT_EQ(special_address_kind(ip("64:ff9b:1::1")), "reserved");
  EXPECT_EQ(special_address_kind(ip("2002:808:808::")), "reserved");
  EXPECT_EQ(special_address_kind(ip("2001:0:4136:e378::1")), "reserved"); // Teredo
  EXPECT_EQ(special_address_kind(ip("::8.8.8.8")), "reserved");
  EXPECT_EQ(special_address_kind(ip("4000::1")), "reserved");
  EXPECT_EQ(special_address_kind(ip("8.8.8.8")), std::nullopt);
  EXPECT_EQ(special_address_kind(ip("2a00:1450::1")), std::nullopt);
  EXPECT_EQ(special_address_kind(ip("192.0.3.1")), std::nullopt);
}

TEST(OutboundAddress, RefusalMessages) {
  const outbound_policy none;
  // The rule, never the address or the host.
  EXPECT_EQ(none.refuse(ip("127.0.0.1")), "a loopback address");
  EXPECT_EQ(none.refuse(ip("10.0.3.7")), "a private address");
  EXPECT_EQ(none.refuse_host("0x7f000001"), "the host is a loopback address");
  EXPECT_EQ(none.refuse_host("0"), "the host is an unspecified address");
  EXPECT_EQ(none.refuse_host("fd12::1"), "the host is a private address");
  EXPECT_EQ(none.refuse_host("localhost"), "the host is a loopback host name");
  EXPECT_EQ(none.refuse_host("256.1.1.1"), "the host is not a valid address");
}

TEST(OutboundAddress, AllowList) {
  const auto loopback_v4 = policy("127.0.0.0/8");
  for (const char* host :
       {"127.0.0.1", "localhost", "2130706433", "127.255.0.1", "::ffff:127.0.0.1"})
    EXPECT_EQ(loopback_v4.refuse_host(host), std::nullopt) << host;
  EXPECT_TRUE(loopback_v4.refuse_host("10.0.0.5"));
  EXPECT_TRUE(loopback_v4.refuse_host("::1"));
  EXPECT_TRUE(loopback_v4.refuse_host("256.1.1.1"));

  const auto loopback_v6 = policy("::1/128");
  EXPECT_EQ(loopback_v6.refuse_host("::1"), std::nullopt);
  EXPECT_EQ(loopback_v6.refuse_host("[::1]"), std::nullopt);
  EXPECT_TRUE(loopback_v6.refuse_host("127.0.0.1"));
  EXPECT_TRUE(loopback_v6.refuse_host("localhost"));

  const auto both = policy(" 127.0.0.0/8 , ::1/128,10.1.2.3");
  EXPECT_EQ(both.allowed().size(), 3u);
  EXPECT_EQ(both.refuse_host("::1"), std::nullopt);
  EXPECT_EQ(both.refuse_host("10.1.2.3"), std::nullopt);
  EXPECT_TRUE(both.refuse_host("10.1.2.4"));
}

TEST(OutboundAddress, PolicyParse) {
  EXPECT_TRUE(policy("").allowed().empty());
  EXPECT_TRUE(policy("  ").allowed().empty());
  EXPECT_EQ(outbound_policy::parse("127.0.0.0/8,,::1"), std::nullopt);
  EXPECT_EQ(outbound_policy::parse("127.0.0.0/8,"), std::nullopt);
  EXPECT_EQ(outbound_policy::parse("127.0.0.0/8, abc"), std::nullopt);
  EXPECT_EQ(outbound_policy::parse("localhost"), std::nullopt);
}

TEST(OutboundAddress, ParseNetwork) {
  const auto net8 = parse_network("10.0.0.0/8");
  ASSERT_TRUE(net8);
  EXPECT_EQ(net8->prefix, 104);
  EXPECT_TRUE(net8->contains(ip("10.255.0.1")));
  EXPECT_FALSE(net8->contains(ip("11.0.0.1")));

  const auto host = parse_network("127.0.0.1");
  ASSERT_TRUE(host);
  EXPECT_EQ(host->prefix, 128);
  EXPECT_TRUE(host->contains(ip("127.0.0.1")));
  EXPECT_FALSE(host->contains(ip("127.0.0.2")));

  const auto masked = parse_network("10.1.2.3/8");
  ASSERT_TRUE(masked);
  EXPECT_EQ(masked->base, ip("10.0.0.0"));

  const auto v6 = parse_network("fd00::/8");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->prefix, 8);
  EXPECT_TRUE(v6->contains(ip("fd12::1")));
  EXPECT_FALSE(v6->contains(ip("fe80::1")));

  const auto odd = parse_network("172.16.0.0/12");
  ASSERT_TRUE(odd);
  EXPECT_TRUE(odd->contains(ip("172.31.255.255")));
  EXPECT_FALSE(odd->contains(ip("172.32.0.0")));

  ASSERT_TRUE(parse_network("::1/128"));
  ASSERT_TRUE(parse_network("0.0.0.0/0"));
  EXPECT_TRUE(parse_network("0.0.0.0/0")->contains(ip("8.8.8.8")));
  EXPECT_FALSE(parse_network("0.0.0.0/0")->contains(ip("2606:4700::1111")));

  for (const char* bad :
       {"10.0.0.0/33", "::/129", "abc", "", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8",
        "10.0.0.0/ 8", "127.1", "0x7f000001", "010.0.0.0/8", "fe80::1%eth0/64", "10.0.0.0/0008"})
    EXPECT_EQ(parse_network(bad), std::nullopt) << bad;
}

} // namespace
} // namespace vcs::domain
