// provider_a's server messages, provider_b's call events, provider_c's
// post-call webhooks and provider_d's call objects, read on the public
// listener (after the secret or signature check), and the JSON quoting of
// the webhook payloads the service sends; see request_shapes.cpp for the
// invariants.

#include "request_shapes.hpp"

#include <cstdint>
#include <string_view>

using namespace vcs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text{reinterpret_cast<const char*>(data), size};
  fuzz::provider_callback_body(text);
  fuzz::webhook_text(text);
  return 0;
}
