#include "domain/forwarded_client.hpp"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

trusted_proxies trusting(std::string_view networks) {
  auto parsed = parse_networks(networks);
  EXPECT_TRUE(parsed) << networks;
  return trusted_proxies{parsed.value_or(std::vector<ip_network>{})};
}

std::string client(const trusted_proxies& t, std::string_view peer, std::string_view forwarded) {
  const auto address = parse_ip_literal(peer);
  EXPECT_TRUE(address) << peer;
  return t.client_of(address.value_or(ip_address{}), forwarded).to_string();
}

TEST(ForwardedClient, AnUntrustedPeerIsTheClientWhateverItsHeaderSays) {
  const auto t = trusting("10.0.0.5");
  EXPECT_EQ(client(t, "198.51.100.9", "203.0.113.7"), "198.51.100.9");
  EXPECT_EQ(client(trusted_proxies{}, "10.0.0.5", "203.0.113.7"), "10.0.0.5");
}

TEST(ForwardedClient, ATrustedPeerNamesTheNearestUntrustedAddress) {
  const auto t = trusting("10.0.0.0/24, 2001:db8::/32");
  EXPECT_EQ(client(t, "10.0.0.5", "203.0.113.7"), "203.0.113.7");
  // A client cannot pick its address by sending X-Forwarded-For itself: the
  // proxy appends what it saw, and the walk stops there.
  EXPECT_EQ(client(t, "10.0.0.5", "192.0.2.1, 203.0.113.7"), "203.0.113.7");
  // Proxies in a chain are skipped.
  EXPECT_EQ(client(t, "10.0.0.5", "203.0.113.7, 10.0.0.9,2001:db8::4"), "203.0.113.7");
  EXPECT_EQ(client(t, "10.0.0.5", " [2001:db9::1] "), "2001:db9::1");
  // Every entry a proxy: the first.
  EXPECT_EQ(client(t, "10.0.0.5", "10.0.0.7, 10.0.0.8"), "10.0.0.7");
  // No header: the proxy itself.
  EXPECT_EQ(client(t, "10.0.0.5", ""), "10.0.0.5");
}

TEST(ForwardedClient, AnEntryThatIsNotAnAddressStopsAtTheProxyThatAddedIt) {
  const auto t = trusting("10.0.0.0/24");
  EXPECT_EQ(client(t, "10.0.0.5", "203.0.113.7, unknown"), "10.0.0.5");
  EXPECT_EQ(client(t, "10.0.0.5", "203.0.113.7, 1.2.3, 10.0.0.9"), "10.0.0.9");
  EXPECT_EQ(client(t, "10.0.0.5", "203.0.113.0/24"), "10.0.0.5");
  EXPECT_EQ(client(t, "10.0.0.5", "203.0.113.7,"), "10.0.0.5");
}

TEST(ForwardedClient, NetworksReadAndShownAsTheSettingSpellsThem) {
  auto networks = parse_networks(" 10.0.0.5, 10.1.0.0/16,::1 ,2001:db8::/32");
  ASSERT_TRUE(networks);
  EXPECT_EQ(format_networks(*networks), "10.0.0.5/32,10.1.0.0/16,::1/128,2001:db8::/32");
  EXPECT_EQ(format_networks(*parse_networks("")), "");
  EXPECT_FALSE(parse_networks("10.0.0.5,,10.0.0.6"));
  EXPECT_FALSE(parse_networks("proxy.internal"));
}

} // namespace
} // namespace vcs::domain
