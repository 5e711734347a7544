#pragma once

// Phone number pools (/api/v2/phone-number-pools): a tenant's named set of
// provider-native phone number ids that POOL campaigns call from. Calls
// rotate across the numbers, each under a daily cap counted in the pool's
// time zone, and a lead's next attempt comes from another number than its
// last when the pool has one.

#include "domain/dial_state.hpp"
#include "domain/error.hpp"
#include "domain/timestamp.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

inline constexpr std::size_t pool_numbers_max = 100;
inline constexpr int32_t pool_daily_cap_max = 100'000;
inline constexpr int32_t pool_daily_cap_default = 100;

// A pool's fields as sent: all of them on create (name and
// phone_number_ids required), any of them on update.
struct pool_fields {
  std::optional<std::string> name;
  std::optional<std::vector<std::string>> phone_number_ids;
  std::optional<int32_t> daily_cap_per_number;
  std::optional<std::string> timezone;
};

// Problems under each field's name: name not blank, at most 255 characters;
// phone_number_ids 1 to pool_numbers_max ids, each not blank, at most 255
// characters, none twice; daily_cap_per_number 1 to pool_daily_cap_max; an
// IANA time zone.
field_errors validate_pool(const pool_fields& f, bool creating);

// One number of a pool and its calls on the pool's current day.
struct pool_number {
  std::string phone_number_id;
  int32_t calls_today = 0;
};

struct phone_number_pool {
  int64_t id = 0;
  std::string name;
  int32_t daily_cap_per_number = pool_daily_cap_default;
  std::string timezone = "UTC";
  // In the order they were given.
  std::vector<pool_number> numbers;
  timestamp created_at{};
  timestamp updated_at{};
};

// The number the next call is placed from: the one with the fewest calls
// today still below `cap`, earlier in the pool on a tie, and not `last`
// (the lead's previous number) while another one is below the cap. nullopt
// when every number has reached the cap.
std::optional<std::size_t> pick_pool_number(const std::vector<pool_number>& numbers, int32_t cap,
                                            std::optional<std::string_view> last);

// Calls the pool may still place today: what its numbers have left below
// the cap.
int64_t pool_calls_left(const std::vector<pool_number>& numbers, int32_t cap);

// The pool's current day at `now` ("YYYY-MM-DD" in its time zone): the day
// its numbers' calls are counted on.
std::string pool_day(const phone_number_pool& pool, timestamp now);

// The pool a campaign dials from: its phone_number_pool_id when its
// dialer_type is POOL (0 when that names no pool), nullopt for a campaign
// that dials from its phone_number_id.
std::optional<int64_t> dialing_pool_of(const campaign& c);

// The pool's side of a POOL campaign's dialing at `now`: its numbers, the
// calls they may place a day and still today, and when its day renews (in
// the pool's time zone).
campaign_dial_facts::pool_capacity capacity_of(const phone_number_pool& pool, timestamp now);

// 404 `Phone number pool not found`.
error phone_number_pool_not_found();

} // namespace vcs::domain
