#pragma once

#include "actors/actors.hpp"
#include "actors/dial_settings.hpp"
#include "actors/entity_config.hpp"
#include "actors/serial_rounds.hpp"

#include <caf/typed_response_promise.hpp>

#include <chrono>
#include <optional>

namespace vcs::actors {

struct dial_scheduler_state {
  static inline const char* name = "dial-scheduler";

  dial_scheduler_state() = default;

  entity_config_ptr config;
  registry_actor registry;
  dial_scheduler_settings settings;

  serial_rounds<dial_counts> rounds;

  // The round in progress.
  std::optional<caf::typed_response_promise<dial_counts>> reply;
  dial_counts counts;
  std::size_t outstanding = 0;
};

// Each round, as of the clock (every `interval`) or of a given time (on
// demand): takes the campaigns whose next look is due and the campaigns past
// their end date and asks each campaign actor for a dial pass (the campaign
// owns its dialing); ends open calls whose report never came; records the
// minutes of ended calls with the subscription actor of the client whose
// account configuration holds the campaign.
dial_scheduler_actor::behavior_type
dial_scheduler(dial_scheduler_actor::stateful_pointer<dial_scheduler_state> self,
               entity_config_ptr config, registry_actor registry, dial_scheduler_settings settings);

} // namespace vcs::actors
