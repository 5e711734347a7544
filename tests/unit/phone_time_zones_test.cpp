#include "domain/phone_time_zones.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

using zones = std::vector<const date::time_zone*>;

bool has(const zones& list, const char* name) {
  return std::find(list.begin(), list.end(), date::locate_zone(name)) != list.end();
}

TEST(phone_time_zones, area_code_maps_to_one_zone) {
  EXPECT_EQ(phone_time_zones("+12125550123"), zones{date::locate_zone("America/New_York")});
  EXPECT_EQ(phone_time_zones("+13105550123"), zones{date::locate_zone("America/Los_Angeles")});
}

TEST(phone_time_zones, longest_prefix_wins) {
  // "1" maps to every +1 zone, "1212" to New York alone.
  const auto whole_plan = phone_time_zones("+1");
  EXPECT_GT(whole_plan.size(), 30u);
  EXPECT_EQ(phone_time_zones("+1212"), zones{date::locate_zone("America/New_York")});
}

TEST(phone_time_zones, toll_free_number_maps_to_every_plan_zone) {
  const auto list = phone_time_zones("+18005550123");
  EXPECT_EQ(list, phone_time_zones("+1"));
  for (const char* name : {"America/New_York", "America/Los_Angeles", "America/St_Johns",
                           "Pacific/Honolulu", "Pacific/Guam", "Pacific/Pago_Pago"})
    EXPECT_TRUE(has(list, name)) << name;
}

TEST(phone_time_zones, other_countries) {
  EXPECT_TRUE(has(phone_time_zones("+442071234567"), "Europe/London"));
  EXPECT_EQ(phone_time_zones("+4930123456"), zones{date::locate_zone("Europe/Berlin")});
  // libphonenumber names India's zone by its old link name, Asia/Calcutta;
  // whatever the tz database makes of it, it is UTC+05:30.
  const auto india = phone_time_zones("+919876543210");
  ASSERT_EQ(india.size(), 1u);
  EXPECT_EQ(india[0]->get_info(date::sys_days{date::year{2026} / 1 / 1}).offset,
            std::chrono::minutes{330});
}

TEST(phone_time_zones, unknown_or_malformed_numbers_have_no_zones) {
  for (const std::string_view text : {"", "+", "12125550123", "+1 212 555 0123", "+1-212",
                                      "+12125550123x", "++12125550123", "+999123456"})
    EXPECT_TRUE(phone_time_zones(text).empty()) << text;
}

TEST(phone_time_zones, concurrent_lookups_agree) {
  const auto expected = phone_time_zones("+18005550123");
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (std::size_t i = 0; i < mismatches.size(); ++i)
    threads.emplace_back([&, i] {
      for (int n = 0; n < 200; ++n)
        if (phone_time_zones("+18005550123") != expected)
          ++mismatches[i];
    });
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

} // namespace
} // namespace vcs::domain
