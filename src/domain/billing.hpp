#pragma once

#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

// A non-negative decimal amount as exact text: digits, optionally "." and
// up to `max_scale` digits, at most 10 integer digits. Money and minutes are
// never floating point.
bool is_decimal(std::string_view text, int max_scale) noexcept;

// Exact decimal arithmetic on validated decimal text: the amount in units
// of 10^-scale ("199.99" at scale 4 is 1999900), and back (trailing zeros
// dropped, at least `min_places` decimals kept).
int64_t to_units(std::string_view decimal, int scale);
std::string from_units(int64_t units, int scale, int min_places = 0);

// A 3-letter currency code (letters only; stored upper case).
bool is_currency(std::string_view text) noexcept;

// One price of a catalog product, identified by the processor's id.
struct price {
  int64_t id = 0;
  std::string processor_price_id;
  std::optional<std::string> billing_type; // e.g. recurring, one_time
  std::optional<std::string> usage_type;   // e.g. licensed, metered
  std::optional<std::string> unit_amount;  // decimal text
  std::string currency;
  std::optional<std::string> interval; // day, week, month, year
  bool active = true;
};

// A catalog product of the tenant (created on the operator plane); client
// creation selects one by its processor id.
struct product {
  int64_t id = 0;
  std::string processor_product_id;
  std::string name;
  std::string pricing_model;
  std::string min_minutes_included;    // decimal text
  std::string additional_minute_price; // decimal text
  int32_t trial_days = 0;
  std::string trial_minutes; // decimal text
  std::vector<price> prices;
  timestamp created_at{};
};

} // namespace vcs::domain
