#pragma once

#include "domain/timestamp.hpp"

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::storage {

// One parameter of a prepared statement in PostgreSQL's text form, or SQL
// NULL. Every C++ type the storage layer binds is encoded here, once:
// integers, booleans, text, timestamps, optionals of them (nullopt is NULL)
// and arrays (a statement casts them: $3::bigint[]). A const std::string is
// borrowed, not copied: parameters live for one execute() call, inside the
// full expression that made them. Large arrays go in binary instead
// (pg_array), which the server copies rather than parses.
class pg_param {
public:
  pg_param(std::nullopt_t) noexcept : null_(true) {}
  pg_param(const std::string& v) noexcept
      : borrowed_(v.c_str()), borrowed_length_(static_cast<int>(v.size())) {}
  pg_param(std::string&& v) noexcept : owned_(std::move(v)) {}
  pg_param(std::string_view v) : owned_(v) {}
  pg_param(const char* v) : owned_(v) {}
  pg_param(bool v) : owned_(v ? "t" : "f") {}
  template <std::integral T>
  requires(!std::same_as<T, bool>) pg_param(T v) : owned_(std::to_string(v)) {}
  pg_param(domain::timestamp v);
  pg_param(const std::vector<int64_t>& v);
  pg_param(const std::vector<std::optional<int64_t>>& v);
  pg_param(const std::vector<std::string>& v);
  pg_param(const std::vector<std::optional<std::string>>& v);
  template <class T>
  pg_param(const std::optional<T>& v) : pg_param(v ? pg_param(*v) : pg_param(std::nullopt)) {}

  // Bytes in the type's binary form (pg_array makes them).
  static pg_param binary(std::string bytes) {
    pg_param p{std::move(bytes)};
    p.binary_ = true;
    return p;
  }

  // Borrows another parameter's bytes, which must outlive it: the same
  // parameter for a second statement, without a copy.
  static pg_param view(const pg_param& p) noexcept {
    pg_param v{std::nullopt};
    v.null_ = p.null_;
    v.binary_ = p.binary_;
    v.borrowed_ = p.value();
    v.borrowed_length_ = p.length();
    return v;
  }

  pg_param(pg_param&&) noexcept = default;
  pg_param(const pg_param&) = delete;
  pg_param& operator=(const pg_param&) = delete;
  pg_param& operator=(pg_param&&) = delete;
  ~pg_param() = default;

  // The NUL-terminated text libpq sends, or null for SQL NULL.
  const char* value() const noexcept {
    if (null_)
      return nullptr;
    return borrowed_ ? borrowed_ : owned_.c_str();
  }
  // libpq reads the length of binary values only.
  int length() const noexcept {
    return borrowed_ ? borrowed_length_ : static_cast<int>(owned_.size());
  }
  // libpq's format code: 0 text, 1 binary.
  int format() const noexcept { return binary_ ? 1 : 0; }

private:
  std::string owned_;
  const char* borrowed_ = nullptr;
  int borrowed_length_ = 0;
  bool null_ = false;
  bool binary_ = false;
};

} // namespace vcs::storage
