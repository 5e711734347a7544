#pragma once

#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

// The spec's value sets, in its order (for `valid_values`).
const std::vector<std::string>& payment_statuses();      // PENDING PAID FAILED CANCELED OVERDUE
const std::vector<std::string>& payment_types();         // SUBSCRIPTION ADDON OVERAGE ONE_TIME
const std::vector<std::string>& subscription_statuses(); // active past_due blocked canceled
bool one_of(const std::vector<std::string>& values, std::string_view v);

struct payment_request {
  int64_t id = 0;
  int64_t client_id = 0;
  std::string client_name;
  std::optional<int64_t> subscription_id;
  std::string status = "PENDING";
  std::string type;
  std::string amount; // decimal text
  std::string currency;
  timestamp due_date{};
  std::optional<timestamp> grace_period_ends_at;
  std::optional<timestamp> paid_at;
  std::optional<std::string> external_payment_id;
  std::optional<std::string> notes;
  std::string line_items_json = "[]";
  timestamp period_start{};
  timestamp period_end{};
  timestamp created_at{};
  timestamp updated_at{};
};

struct subscription_record {
  int64_t id = 0;
  int64_t client_id = 0;
  std::string client_name;
  std::string product_id; // processor product id
  std::string product_name;
  std::string status;
  timestamp current_period_start{};
  timestamp current_period_end{};
  timestamp created_at{};
  timestamp updated_at{};
};

struct usage_record {
  int64_t client_id = 0;
  std::string client_name;
  int64_t subscription_id = 0;
  std::string minutes_included_limit; // decimal texts
  std::string minutes_included_used;
  std::string minutes_addon_balance;
  std::string minutes_billable_used;
  timestamp current_period_start{};
  timestamp current_period_end{};
  timestamp updated_at{};
};

} // namespace vcs::domain
