#include "domain/bulk_import.hpp"

namespace vcs::domain {

const std::vector<std::string>& rejection_reason_names() {
  static const std::vector<std::string> names{"invalid", "duplicate_in_request",
                                              "already_in_campaign"};
  return names;
}

std::string_view to_string(rejection_reason r) {
  return rejection_reason_names()[static_cast<std::size_t>(r)];
}

std::optional<rejection_reason> parse_rejection_reason(std::string_view s) {
  const auto& names = rejection_reason_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == s)
      return static_cast<rejection_reason>(i);
  return std::nullopt;
}

const std::vector<std::string>& import_job_statuses() {
  static const std::vector<std::string> statuses{"queued", "running", "done", "failed"};
  return statuses;
}

} // namespace vcs::domain
