#include "domain/error.hpp"

#include <algorithm>

namespace vcs::domain {

void field_errors::add(std::string field, std::string message) {
  const auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const auto& entry) { return entry.first == field; });
  if (it != entries_.end()) {
    it->second.push_back(std::move(message));
    return;
  }
  entries_.emplace_back(std::move(field), std::vector<std::string>{std::move(message)});
}

void field_errors::merge(const std::string& prefix, const field_errors& inner) {
  for (const auto& [field, messages] : inner.entries())
    for (const auto& m : messages)
      add(prefix + "." + field, m);
}

error& error::with_errors(std::vector<std::string> items) & {
  errors = std::move(items);
  return *this;
}

error&& error::with_errors(std::vector<std::string> items) && {
  return std::move(with_errors(std::move(items)));
}

error& error::with_field_errors(field_errors fields) & {
  errors = std::move(fields);
  return *this;
}

error&& error::with_field_errors(field_errors fields) && {
  return std::move(with_field_errors(std::move(fields)));
}

error& error::with_detail(std::string text) & {
  detail = std::move(text);
  return *this;
}

error&& error::with_detail(std::string text) && {
  return std::move(with_detail(std::move(text)));
}

error& error::with_detail(std::vector<std::string> items) & {
  detail = std::move(items);
  return *this;
}

error&& error::with_detail(std::vector<std::string> items) && {
  return std::move(with_detail(std::move(items)));
}

error internal_error() {
  return {errc::internal, "Internal server error"};
}

error invalid_data(field_errors fields) {
  return error{errc::bad_request, "Invalid data"}.with_field_errors(std::move(fields));
}

error not_found(std::string message) {
  return {errc::not_found, std::move(message)};
}

error service_unavailable() {
  return {errc::unavailable, "Service temporarily unavailable"};
}

error outcome_unknown() {
  return {errc::outcome_unknown,
          "The request took too long and may still complete; retry a write with the same "
          "Idempotency-Key to learn its outcome"};
}

error not_run_in_time() {
  return {errc::unavailable, "The request waited too long and was not run; retry it"};
}

error too_many_items(std::size_t max_items) {
  return {errc::bad_request,
          "Request body may hold at most " + std::to_string(max_items) + " items"};
}

error item_too_large(std::size_t index, std::size_t max_bytes) {
  return {errc::bad_request, "Item " + std::to_string(index) + " is larger than " +
                                 std::to_string(max_bytes) + " bytes"};
}

error too_many_values(std::size_t max_values) {
  return {errc::bad_request,
          "Request body may hold at most " + std::to_string(max_values) + " JSON values"};
}

} // namespace vcs::domain
