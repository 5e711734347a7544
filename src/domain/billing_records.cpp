#include "domain/billing_records.hpp"

#include <algorithm>

namespace vcs::domain {

const std::vector<std::string>& payment_statuses() {
  static const std::vector<std::string> v{"PENDING", "PAID", "FAILED", "CANCELED", "OVERDUE"};
  return v;
}

const std::vector<std::string>& payment_types() {
  static const std::vector<std::string> v{"SUBSCRIPTION", "ADDON", "OVERAGE", "ONE_TIME"};
  return v;
}

const std::vector<std::string>& subscription_statuses() {
  static const std::vector<std::string> v{"active", "past_due", "blocked", "canceled"};
  return v;
}

bool one_of(const std::vector<std::string>& values, std::string_view v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

} // namespace vcs::domain
