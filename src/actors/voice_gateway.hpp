#pragma once

// The voice provider adapters behind one interface: place a call for a lead
// with the campaign's assistant and number; the outcome comes back to the
// campaign actor as (call_atom, call_update).

#include "actors/actors.hpp"
#include "actors/provider_inquiry.hpp"
#include "domain/call_lead.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace vcs::actors {

struct call_placement {
  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
  int64_t call_id = 0;
  int64_t lead_id = 0;
  std::string phone_number;
  int32_t attempt = 0;
  std::string provider_kind; // provider_a .. provider_d
  int64_t voice_provider_id = 0;
  // The configuration's sealed credentials (opened only by a live adapter).
  domain::secret_box::sealed credentials;
  std::optional<std::string> assistant_id;
  // What assistant_id names on provider_a: ASSISTANT (the default), SQUAD
  // or WORKFLOW (the campaign's provider_a_calling_entity).
  std::optional<std::string> calling_entity;
  std::optional<std::string> phone_number_id;
  // The lead's fields, which live providers pass to the assistant.
  domain::call_lead lead;
  // custom_fields.simulated_outcomes and .simulated_evaluations of the lead
  // (simulated provider only).
  std::optional<std::string> script;
  std::optional<std::string> evaluation_script;
};

class voice_gateway {
public:
  virtual ~voice_gateway() = default;

  // Starts the call without blocking; progress reaches `sink`.
  virtual void place(const call_placement& call, const campaign_actor& sink) = 0;

  // Asks the vendor without blocking; `done` runs once, on any thread.
  virtual void inquire(const provider_inquiry& q, inquiry_done done) = 0;
};

// The simulated provider: every call rings after `ring`, then ends after
// `call_time` with an outcome drawn from the mix (weights per outcome) or
// scripted by the lead's custom_fields.simulated_outcomes ("busy,human":
// one outcome per attempt, the last one repeating). Answered calls report
// `talk_seconds` of duration (what usage is charged), others 0. A call that
// reached a person or a voicemail reports a summary, a transcript and a
// success evaluation ("true" for a person, "false" for a voicemail, or per
// attempt from custom_fields.simulated_evaluations, "false,true"); every
// call reports an ended reason in provider_a's words and a cost of 0.001
// per second.
struct simulated_settings {
  std::map<domain::call_outcome, int> mix{{domain::call_outcome::human, 1}};
  std::chrono::milliseconds ring{100};
  std::chrono::milliseconds call_time{1000};
  int32_t talk_seconds = 60;
};

// "human:50,voicemail:20,no_answer:20,busy:5,failed:3,invalid_number:2";
// nullopt when a name is unknown, a weight is not a non-negative integer,
// or every weight is 0.
std::optional<std::map<domain::call_outcome, int>> parse_outcome_mix(std::string_view text);

std::shared_ptr<voice_gateway> make_simulated_gateway(simulated_settings settings);

// Live calls for the kinds `live` has an adapter for, the simulated
// provider for every kind when `live` is empty (its inquiries answer ok,
// with no items, marked simulated):
// a node either simulates or calls for real, and a live node refuses the
// kinds it has no adapter for (the call ends ABANDONED with the reason, the
// lead retries).
using live_gateways = std::map<std::string, std::shared_ptr<voice_gateway>, std::less<>>;
std::shared_ptr<voice_gateway> make_routing_gateway(std::shared_ptr<voice_gateway> simulated,
                                                    live_gateways live);

} // namespace vcs::actors
