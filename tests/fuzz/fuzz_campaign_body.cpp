// A campaign body: create, partial update and the status change.

#include "request_shapes.hpp"

#include <cstdint>
#include <string_view>

using namespace vcs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body{reinterpret_cast<const char*>(data), size};
  fuzz::campaign_body(body, true);
  fuzz::campaign_body(body, false);
  fuzz::campaign_status_body(body);
  return 0;
}
