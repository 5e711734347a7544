#pragma once

#include "storage/pg_param.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::storage {

// The element types sent as binary arrays, by their PostgreSQL type OIDs.
enum class pg_element : uint32_t { boolean = 16, int4 = 23, text = 25 };

// A one-dimensional array parameter in PostgreSQL's binary form (what
// array_recv reads): the server copies the elements instead of parsing a
// quoted text literal, which was most of the input cost of a 5,000-row lead
// insert. The statement casts the parameter to the matching array type
// ($1::text[]).
class pg_array {
public:
  pg_array(pg_element element, std::size_t count);

  void add_text(std::string_view v);
  void add_text(const std::optional<std::string>& v);
  void add_bool(bool v);
  void add_int4(int32_t v);

  // Every one of `count` elements must have been added.
  pg_param finish() &&;

private:
  void add_length(int32_t n);

  std::string bytes_;
  pg_element element_;
  std::size_t count_;
  std::size_t added_ = 0;
  bool has_null_ = false;
};

} // namespace vcs::storage
