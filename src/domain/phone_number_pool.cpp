#include "domain/phone_number_pool.hpp"

#include "domain/campaign.hpp"
#include "domain/dial_policy.hpp"
#include "domain/global_id.hpp"

#include <algorithm>
#include <set>

namespace vcs::domain {

field_errors validate_pool(const pool_fields& f, bool creating) {
  field_errors errors;
  constexpr const char* required = "This field is required.";
  if (f.name)
    check_text("name", *f.name, name_max_length, errors);
  else if (creating)
    errors.add("name", required);
  if (f.phone_number_ids) {
    const auto& ids = *f.phone_number_ids;
    if (ids.empty() || ids.size() > pool_numbers_max)
      errors.add("phone_number_ids",
                 "Give 1 to " + std::to_string(pool_numbers_max) + " phone number ids.");
    std::set<std::string_view> seen;
    for (const auto& id : ids) {
      if (!check_text("phone_number_ids", id, id_field_max_length, errors))
        break;
      if (!seen.insert(id).second) {
        errors.add("phone_number_ids", "The phone number id " + id + " is given twice.");
        break;
      }
    }
  } else if (creating) {
    errors.add("phone_number_ids", required);
  }
  if (f.daily_cap_per_number &&
      (*f.daily_cap_per_number < 1 || *f.daily_cap_per_number > pool_daily_cap_max))
    errors.add("daily_cap_per_number",
               "Must be between 1 and " + std::to_string(pool_daily_cap_max) + ".");
  if (f.timezone && !is_iana_zone(*f.timezone))
    errors.add("timezone", "Unknown time zone.");
  return errors;
}

std::optional<std::size_t> pick_pool_number(const std::vector<pool_number>& numbers, int32_t cap,
                                            std::optional<std::string_view> last) {
  std::optional<std::size_t> best;
  std::optional<std::size_t> the_last;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (numbers[i].calls_today >= cap)
      continue;
    if (last && numbers[i].phone_number_id == *last) {
      the_last = i;
      continue;
    }
    if (!best || numbers[i].calls_today < numbers[*best].calls_today)
      best = i;
  }
  return best ? best : the_last;
}

int64_t pool_calls_left(const std::vector<pool_number>& numbers, int32_t cap) {
  int64_t left = 0;
  for (const auto& n : numbers)
    left += std::max(0, cap - n.calls_today);
  return left;
}

std::string pool_day(const phone_number_pool& pool, timestamp now) {
  return local_day(zone_named(pool.timezone), now);
}

std::optional<int64_t> dialing_pool_of(const campaign& c) {
  if (c.dialer_type != "POOL")
    return std::nullopt;
  if (!c.phone_number_pool_id)
    return 0;
  return decode_global_id(entity::phone_number_pool, *c.phone_number_pool_id).value_or(0);
}

campaign_dial_facts::pool_capacity capacity_of(const phone_number_pool& pool, timestamp now) {
  campaign_dial_facts::pool_capacity c;
  c.numbers = static_cast<int64_t>(pool.numbers.size());
  c.calls_per_day = c.numbers * pool.daily_cap_per_number;
  c.calls_left_today = pool_calls_left(pool.numbers, pool.daily_cap_per_number);
  c.next_day = next_day_start(zone_named(pool.timezone), now);
  return c;
}

error phone_number_pool_not_found() {
  return error{errc::not_found, "Phone number pool not found"};
}

} // namespace vcs::domain
