#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace vcs::domain {

// What went wrong, independent of transport; src/http maps each code to a
// status in one place (http/render/error_mapping.cpp).
enum class errc : uint8_t {
  bad_request = 1,
  unauthorized,
  forbidden,
  not_found,
  method_not_allowed,
  conflict,
  payload_too_large,
  unprocessable,
  plan_limit,
  unavailable,
  internal,
  too_many_requests,
  // Timed out while a write may still commit (503; its Idempotency-Key
  // stays claimed until the outcome is known).
  outcome_unknown,
  // A service the request depends on (a tenant's voice provider) failed
  // or refused it (502).
  upstream_failed,
};

// Field name -> messages, in insertion order (JSON object in the envelope).
class field_errors {
public:
  void add(std::string field, std::string message);
  // Adds every problem of `inner` under "<prefix>.<field>" (nested bodies).
  void merge(const std::string& prefix, const field_errors& inner);
  bool empty() const noexcept { return entries_.empty(); }
  const std::vector<std::pair<std::string, std::vector<std::string>>>& entries() const noexcept {
    return entries_;
  }

private:
  std::vector<std::pair<std::string, std::vector<std::string>>> entries_;
};

// What went wrong as one value: a code, the message, and the details the
// spec's envelope carries ({message, errors?, error?, valid_values?}). How a
// route's envelope names or adds to them is src/http's (error_envelope.hpp).
struct error {
  errc code = errc::internal;
  std::string message;
  // `errors`: absent, an array of strings, or an object keyed by field.
  std::variant<std::monostate, std::vector<std::string>, field_errors> errors;
  // `error`: absent, a string, or an array of strings.
  std::variant<std::monostate, std::string, std::vector<std::string>> detail;
  // The values allowed where a value was refused.
  std::optional<std::vector<std::string>> valid_values;

  error() = default;
  error(errc c, std::string msg) : code(c), message(std::move(msg)) {}

  error& with_errors(std::vector<std::string> items) &;
  error&& with_errors(std::vector<std::string> items) &&;
  error& with_field_errors(field_errors fields) &;
  error&& with_field_errors(field_errors fields) &&;
  error& with_detail(std::string text) &;
  error&& with_detail(std::string text) &&;
  error& with_detail(std::vector<std::string> items) &;
  error&& with_detail(std::vector<std::string> items) &&;
};

// "a, b, c": the allowed values in an error message.
template <class Range> std::string join(const Range& items, std::string_view separator = ", ") {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty())
      out += separator;
    out += item;
  }
  return out;
}

// Common errors worded as the spec words them.
error internal_error();
error invalid_data(field_errors fields);
error not_found(std::string message);
// 503 for work that did not run (the database or an actor is gone).
error service_unavailable();
// 503 for work past its deadline that may still commit.
error outcome_unknown();
// 503 for work dropped unrun because it waited past its deadline.
error not_run_in_time();
// 400 for a list body with more items than its route takes.
error too_many_items(std::size_t max_items);
// 400 for a list body item (0-based `index`) larger than `max_bytes`.
error item_too_large(std::size_t index, std::size_t max_bytes);
// 400 for a list body with more than `max_values` JSON values.
error too_many_values(std::size_t max_values);

// A value or an error, for domain functions that can fail.
template <class T> class result {
public:
  result(T value) : v_(std::move(value)) {}
  result(error err) : v_(std::move(err)) {}
  bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const T& value() const& { return std::get<0>(v_); }
  T& operator*() & { return value(); }
  T* operator->() { return &value(); }
  const error& err() const& { return std::get<1>(v_); }
  error&& err() && { return std::get<1>(std::move(v_)); }

private:
  std::variant<T, error> v_;
};

} // namespace vcs::domain
