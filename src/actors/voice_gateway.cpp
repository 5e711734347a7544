#include "actors/voice_gateway.hpp"

#include <caf/send.hpp>

#include <charconv>
#include <mutex>
#include <random>

namespace vcs::actors {

namespace {

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
    ended.resends_left = call_update::in_process_resends;
    caf::delayed_anon_send(sink, settings_.ring + settings_.call_time, call_atom::value, ended);
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
  routing_gateway(std::shared_ptr<voice_gateway> simulated, std::shared_ptr<voice_gateway> live,
                  std::string live_kind)
      : simulated_(std::move(simulated)), live_(std::move(live)), live_kind_(std::move(live_kind)) {
  }

  void place(const call_placement& call, const campaign_actor& sink) override {
    if (!live_)
      return simulated_->place(call, sink);
    if (call.provider_kind == live_kind_)
      return live_->place(call, sink);
    call_update refused;
    refused.what = call_update::kind::refused;
    refused.call_id = call.call_id;
    refused.error = "no live adapter for " + call.provider_kind;
    refused.resends_left = call_update::in_process_resends;
    caf::anon_send(sink, call_atom::value, refused);
  }

private:
  std::shared_ptr<voice_gateway> simulated_;
  std::shared_ptr<voice_gateway> live_;
  std::string live_kind_;
};

} // namespace

std::shared_ptr<voice_gateway> make_routing_gateway(std::shared_ptr<voice_gateway> simulated,
                                                    std::shared_ptr<voice_gateway> live,
                                                    std::string live_kind) {
  return std::make_shared<routing_gateway>(std::move(simulated), std::move(live),
                                           std::move(live_kind));
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
