// The lead bodies: one lead (POST .../leads, v1 update and remove) and the
// bulk arrays (add, update, remove), as JSON bytes, and bulk add as CSV.

#include "request_shapes.hpp"

#include <cstdint>
#include <string_view>

using namespace vcs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body{reinterpret_cast<const char*>(data), size};
  fuzz::single_lead_bodies(body);
  fuzz::bulk_lead_bodies(body);
  return 0;
}
