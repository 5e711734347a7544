#include "actors/voice_gateway.hpp"

#include "domain/voice_provider.hpp"

#include <caf/send.hpp>

#include <charconv>
#include <mutex>
#include <random>

namespace vcs::actors {

namespace {

// provider_a's endedReason for each outcome (outcome_of_ended_reason reads
// them back).
std::string_view ended_reason_of(domain::call_outcome o) {
  using domain::call_outcome;
  switch (o) {
  case call_outcome::human:
    return "customer-ended-call";
  case call_outcome::voicemail:
    return "voicemail";
  case call_outcome::no_answer:
    return "customer-did-not-answer";
  case call_outcome::busy:
    return "customer-busy";
  case call_outcome::invalid_number:
    return "call.start.error-invalid-number";
  case call_outcome::failed:
    break;
  }
  return "pipeline-error-simulated";
}

domain::call_result result_of(const call_placement& call, domain::call_outcome outcome,
                              int32_t seconds) {
  using domain::call_outcome;
  domain::call_result r;
  r.ended_reason = std::string{ended_reason_of(outcome)};
  r.cost = domain::cost_text(seconds * 0.001);
  if (outcome != call_outcome::human && outcome != call_outcome::voicemail)
    return r;
  const bool person = outcome == call_outcome::human;
  r.summary = "Simulated call to " + call.phone_number + ", attempt " +
              std::to_string(call.attempt) + (person ? ": a person answered." : ": a voicemail.");
  r.transcript = person ? "AI: Hello, this is a simulated call.\nUser: Hello, go ahead."
                        : "AI: Hello, please call us back when you can.";
  r.success_evaluation = call.evaluation_script
                             ? domain::scripted_evaluation(*call.evaluation_script, call.attempt)
                             : std::nullopt;
  if (!r.success_evaluation)
    r.success_evaluation = person ? "true" : "false";
  r.structured_data = std::string{R"({"simulated":true,"outcome":")"} +
                      std::string{domain::to_string(outcome)} + "\"}";
  return r;
}

class simulated_gateway final : public voice_gateway {
public:
  explicit simulated_gateway(simulated_settings s) : settings_(std::move(s)) {
    std::vector<int> weights;
    for (const auto& [outcome, weight] : settings_.mix) {
      outcomes_.push_back(outcome);
      weights.push_back(weight);
    }
    pick_ = std::discrete_distribution<std::size_t>{weights.begin(), weights.end()};
  }

  void place(const call_placement& call, const campaign_actor& sink) override {
    auto outcome = call.script ? domain::scripted_outcome(*call.script, call.attempt)
                               : std::optional<domain::call_outcome>{};
    if (!outcome)
      outcome = draw();
    call_update ringing;
    ringing.what = call_update::kind::ringing;
    ringing.call_id = call.call_id;
    ringing.provider_call_id = "sim-" + std::to_string(call.call_id);
    caf::delayed_anon_send(sink, settings_.ring, call_atom::value, ringing);
    call_update ended;
    ended.what = call_update::kind::ended;
    ended.call_id = call.call_id;
    ended.provider_call_id = ringing.provider_call_id;
    ended.outcome = *outcome;
    bool talked =
        *outcome == domain::call_outcome::human || *outcome == domain::call_outcome::voicemail;
    ended.duration_seconds = talked ? settings_.talk_seconds : 0;
    ended.result = result_of(call, *outcome, ended.duration_seconds);
    ended.resends_left = call_update::in_process_resends;
    caf::delayed_anon_send(sink, settings_.ring + settings_.call_time, call_atom::value, ended);
  }

  // No vendor behind it: the credentials are not checked and the account
  // has nothing to list.
  void inquire(const provider_inquiry&, inquiry_done done) override {
    inquiry_result r;
    r.simulated = true;
    r.detail = "simulated provider: no vendor was asked";
    done(std::move(r));
  }

private:
  domain::call_outcome draw() {
    std::lock_guard<std::mutex> guard{mutex_};
    return outcomes_[pick_(rng_)];
  }

  simulated_settings settings_;
  std::vector<domain::call_outcome> outcomes_;
  std::discrete_distribution<std::size_t> pick_;
  std::mutex mutex_;
  std::mt19937_64 rng_{std::random_device{}()};
};

class routing_gateway final : public voice_gateway {
public:
  routing_gateway(std::shared_ptr<voice_gateway> simulated, live_gateways live)
      : simulated_(std::move(simulated)), live_(std::move(live)) {}

  void place(const call_placement& call, const campaign_actor& sink) override {
    if (simulates(call.provider_kind))
      return simulated_->place(call, sink);
    if (auto it = live_.find(call.provider_kind); it != live_.end())
      return it->second->place(call, sink);
    call_update refused;
    refused.what = call_update::kind::refused;
    refused.call_id = call.call_id;
    refused.error = "no live adapter for " + call.provider_kind;
    refused.resends_left = call_update::in_process_resends;
    caf::anon_send(sink, call_atom::value, refused);
  }

  void inquire(const provider_inquiry& q, inquiry_done done) override {
    if (simulates(q.provider_kind))
      return simulated_->inquire(q, std::move(done));
    if (auto it = live_.find(q.provider_kind); it != live_.end())
      return it->second->inquire(q, std::move(done));
    inquiry_result r;
    r.outcome = inquiry_outcome::unexpected_answer;
    r.detail = "no live adapter for " + q.provider_kind;
    done(std::move(r));
  }

private:
  // A simulated node simulates every kind; a live one its simulated kind.
  bool simulates(const std::string& kind) const {
    return live_.empty() || kind == domain::to_string(domain::voice_provider_kind::simulated);
  }

  std::shared_ptr<voice_gateway> simulated_;
  live_gateways live_;
};

} // namespace

std::shared_ptr<voice_gateway> make_routing_gateway(std::shared_ptr<voice_gateway> simulated,
                                                    live_gateways live) {
  return std::make_shared<routing_gateway>(std::move(simulated), std::move(live));
}

std::optional<std::map<domain::call_outcome, int>> parse_outcome_mix(std::string_view text) {
  std::map<domain::call_outcome, int> mix;
  int total = 0;
  while (!text.empty()) {
    auto comma = text.find(',');
    auto item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    auto colon = item.find(':');
    if (colon == std::string_view::npos)
      return std::nullopt;
    auto outcome = domain::parse_call_outcome(item.substr(0, colon));
    auto weight_text = item.substr(colon + 1);
    int weight = -1;
    auto [ptr, ec] =
        std::from_chars(weight_text.data(), weight_text.data() + weight_text.size(), weight);
    if (!outcome || ec != std::errc{} || ptr != weight_text.data() + weight_text.size() ||
        weight < 0 || weight > 1'000'000)
      return std::nullopt;
    mix[*outcome] = weight;
    total += weight;
  }
  if (total == 0)
    return std::nullopt;
  return mix;
}

std::shared_ptr<voice_gateway> make_simulated_gateway(simulated_settings settings) {
  return std::make_shared<simulated_gateway>(std::move(settings));
}

} // namespace vcs::actors
