// The voice provider configuration body (POST /api/v2/voice-pod).

#include "request_shapes.hpp"

#include <cstdint>
#include <string_view>

using namespace vcs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body{reinterpret_cast<const char*>(data), size};
  fuzz::voice_provider_body(body);
  return 0;
}
