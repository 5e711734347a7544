// Global id decoding of any text as every kind (strict, canonical base64 of
// "<TypeName>:<id>"), the plain integer form, and the encode/decode round
// trip; see request_shapes.cpp global_id_text for the invariants.

#include "request_shapes.hpp"

#include <cstdint>
#include <string_view>

using namespace vcs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::global_id_text({reinterpret_cast<const char*>(data), size});
  return 0;
}
