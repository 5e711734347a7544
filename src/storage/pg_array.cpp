#include "storage/pg_array.hpp"

#include <stdexcept>

namespace vcs::storage {

namespace {

// Network byte order, as every integer of the binary format.
void append_int32(std::string& out, uint32_t v) {
  const char bytes[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                         static_cast<char>(v >> 8), static_cast<char>(v)};
  out.append(bytes, 4);
}

constexpr std::size_t header_bytes = 20; // dimensions, flags, element type, length, lower bound
constexpr std::size_t flags_at = 4;

} // namespace

pg_array::pg_array(pg_element element, std::size_t count) : element_(element), count_(count) {
  if (count > static_cast<std::size_t>(INT32_MAX))
    throw std::length_error("array parameter too long");
  bytes_.reserve(header_bytes + count * 16);
  // No elements is the array of no dimensions.
  append_int32(bytes_, count == 0 ? 0 : 1);
  append_int32(bytes_, 0);
  append_int32(bytes_, static_cast<uint32_t>(element));
  if (count > 0) {
    append_int32(bytes_, static_cast<uint32_t>(count));
    append_int32(bytes_, 1);
  }
}

void pg_array::add_length(int32_t n) {
  if (++added_ > count_)
    throw std::logic_error("more array elements than announced");
  append_int32(bytes_, static_cast<uint32_t>(n));
}

void pg_array::add_text(std::string_view v) {
  if (v.size() > static_cast<std::size_t>(INT32_MAX))
    throw std::length_error("array element too long");
  add_length(static_cast<int32_t>(v.size()));
  bytes_.append(v);
}

void pg_array::add_text(const std::optional<std::string>& v) {
  if (v)
    return add_text(std::string_view{*v});
  add_length(-1);
  has_null_ = true;
}

void pg_array::add_bool(bool v) {
  add_length(1);
  bytes_ += v ? '\1' : '\0';
}

void pg_array::add_int4(int32_t v) {
  add_length(4);
  append_int32(bytes_, static_cast<uint32_t>(v));
}

pg_param pg_array::finish() && {
  if (added_ != count_)
    throw std::logic_error("fewer array elements than announced");
  if (has_null_)
    bytes_[flags_at + 3] = '\1';
  return pg_param::binary(std::move(bytes_));
}

} // namespace vcs::storage
