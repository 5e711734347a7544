#pragma once

// What a live provider's callback says about one of its calls, read by its
// adapter (provider_a_gateway.hpp, provider_b_gateway.hpp) and applied by
// the callback handler.

#include "actors/dialer_messages.hpp"
#include "domain/call_result.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace vcs::outbound {

struct provider_report {
  std::optional<int64_t> call_id; // ours, from the metadata we gave
  std::string provider_call_id;
  // ringing or ended, for the campaign actor.
  actors::call_update update;
  // An analysis that arrives after the call ended (provider_b's
  // call_analyzed): it fills what the ended call's result lacks.
  std::optional<domain::call_result> analysis;
};

} // namespace vcs::outbound
