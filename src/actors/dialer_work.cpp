#include "actors/dialer_work.hpp"

#include "actors/campaign_events.hpp"

#include "domain/dial_policy.hpp"
#include "domain/dial_state.hpp"
#include "domain/failure_breaker.hpp"
#include "domain/global_id.hpp"
#include "domain/phone_number_pool.hpp"
#include "domain/webhook_event.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/phone_number_pool_repository.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace vcs::actors {

namespace {

using domain::campaign_status;
using domain::dial_state;

void call_event(soci::session& sql, const domain::campaign& c, std::string type,
                const storage::open_call& call, const domain::lead_call_state& lead,
                std::optional<domain::call_outcome> outcome, int32_t duration,
                const domain::call_result* result) {
  domain::webhook_event e;
  e.type = std::move(type);
  e.call_id = call.id;
  e.lead_id = domain::encode_global_id(domain::entity::lead, call.lead_id);
  e.phone_number = call.phone_number;
  e.phone_number_id = call.phone_number_id;
  e.attempt = call.attempt;
  if (outcome)
    e.outcome = std::string{domain::to_string(*outcome)};
  e.duration_seconds = duration;
  e.call_status = std::string{domain::to_string(lead.status)};
  e.answered = lead.answered;
  e.answer_type = lead.answer_type;
  e.attempts_made = lead.attempts_made;
  e.next_attempt_after = lead.next_attempt_after;
  e.call_error_reason = lead.call_error_reason;
  e.custom_fields_json = call.lead_custom_fields_json;
  if (result)
    e.result = *result;
  enqueue_event(sql, c, std::move(e));
}

void next_look(soci::session& sql, const domain::campaign& c, std::optional<domain::timestamp> at) {
  storage::set_next_dial_at(sql, c.tenant_id, c.id, at);
}

// After a provider failure (call `call_id`) of an ACTIVE campaign: pauses
// it when its breaker trips, and answers the paused campaign.
std::optional<domain::campaign> check_breaker(soci::session& sql, const domain::campaign& c,
                                              int64_t call_id) {
  const auto breaker = domain::breaker_of(c);
  if (breaker.calls == 0)
    return std::nullopt;
  int64_t ended = 0;
  int64_t failures = 0;
  for (const auto& e : storage::recent_call_endings(sql, c.tenant_id, c.id, c.failure_breaker_after,
                                                    breaker.calls)) {
    ended += e.count;
    if (domain::is_provider_failure(e.status, e.outcome))
      failures += e.count;
  }
  if (!domain::breaker_trips(breaker, ended, failures))
    return std::nullopt;
  auto paused = storage::trip_failure_breaker(sql, c.tenant_id, c.id, call_id);
  if (!paused)
    return std::nullopt;
  spdlog::warn("campaign {} of tenant {}: paused by its failure breaker ({} of its last {} calls "
               "failed at the provider)",
               c.id, c.tenant_id, failures, ended);
  next_look(sql, *paused, std::nullopt);
  status_event(sql, *paused, c.status, domain::status_cause::failure_breaker);
  return paused;
}

std::optional<domain::campaign> pause_for_credentials(soci::session& sql, const domain::campaign& c,
                                                      const std::string& answer) {
  auto paused = storage::pause_for_provider_credentials(sql, c.tenant_id, c.id);
  if (!paused)
    return std::nullopt;
  spdlog::warn("campaign {} of tenant {}: paused, its provider refused the configuration's "
               "credentials ({})",
               c.id, c.tenant_id, answer.substr(0, 120));
  next_look(sql, *paused, std::nullopt);
  status_event(sql, *paused, c.status, domain::status_cause::provider_credentials);
  return paused;
}

// The candidates called before: whose last number a pool avoids.
std::vector<int64_t> called_before(const std::vector<storage::dial_candidate>& candidates) {
  std::vector<int64_t> ids;
  for (const auto& lead : candidates)
    if (lead.state.attempts_made > 0)
      ids.push_back(lead.lead_id);
  return ids;
}

// The recent calls of the candidates whose calls a contact cap governs,
// under their numbers' locks (storage::lock_recent_contacts); none are
// taken when no cap governs any of them.
storage::recent_contacts lock_capped_contacts(soci::session& sql, int64_t tenant_id,
                                              const domain::dial_policy& policy,
                                              const std::vector<storage::dial_candidate>& leads,
                                              domain::timestamp now) {
  std::vector<std::string> numbers;
  for (const auto& lead : leads)
    if (!domain::caps_for(policy, {lead.phone_number, lead.where}, now).empty())
      numbers.push_back(lead.phone_number);
  if (numbers.empty())
    return {};
  const auto back = domain::lookback_of(policy);
  return storage::lock_recent_contacts(sql, tenant_id, std::move(numbers), now - back.window,
                                       back.calls);
}

} // namespace

std::vector<call_placement> dial_pass(soci::session& sql, const entity_config& cfg,
                                      int64_t tenant_id, int64_t campaign_id,
                                      domain::timestamp now) {
  std::vector<call_placement> out;
  auto found = storage::find_campaign(sql, tenant_id, campaign_id);
  if (!found || found->status == campaign_status::ended)
    return out;
  auto c = std::move(*found);
  auto policy = domain::policy_of(c, c.lead_local_time);
  auto facts = storage::read_dial_facts(sql, c, policy, now);
  if (domain::starts_now(facts, policy, now)) {
    const auto before = c.status;
    c = storage::set_campaign_status(sql, tenant_id, campaign_id, campaign_status::active);
    facts.status = c.status;
    status_event(sql, c, before, domain::status_cause::schedule);
  }
  if (auto refused = domain::campaign_refusal(facts, policy, now)) {
    std::optional<domain::timestamp> look;
    if (*refused == dial_state::campaign_ended) {
      const auto before = c.status;
      c = storage::set_campaign_status(sql, tenant_id, campaign_id, campaign_status::ended);
      status_event(sql, c, before, domain::status_cause::schedule);
    } else if (*refused == dial_state::campaign_not_started) {
      look = domain::start_instant(policy);
    } else if (*refused == dial_state::outside_window) {
      // Nothing to do until the campaign's window opens (in lead time every
      // lead has its own window, and this refusal does not arise).
      look = domain::next_window_open(policy, policy.zone, now);
    } else if (*refused == dial_state::numbers_at_daily_cap) {
      look = facts.pool->next_day;
    }
    if (auto ends = domain::end_instant(policy); look && ends && *look >= *ends)
      look = ends;
    next_look(sql, c, look);
    return out;
  }
  auto slots = storage::lock_provider_slots(sql, tenant_id, *c.voice_provider_id);
  if (!slots) {
    next_look(sql, c, std::nullopt);
    return out;
  }
  auto free = static_cast<int64_t>(slots->limit) - slots->open;
  if (free <= 0) {
    next_look(sql, c, now + cfg.dial_busy_poll);
    return out;
  }
  // A POOL campaign's numbers are counted under the pool's lock, taken
  // after the provider's (every dial pass takes them in this order).
  std::optional<domain::phone_number_pool> pool;
  if (auto pool_id = domain::dialing_pool_of(c)) {
    pool = storage::lock_pool(sql, tenant_id, *pool_id, now);
    if (!pool) {
      next_look(sql, c, std::nullopt);
      return out;
    }
  }
  auto want = static_cast<int32_t>(std::min<int64_t>(free, cfg.settings.dial_batch));
  auto today = domain::local_day(policy.zone, now);
  // Leads outside their own hours or held by a calling rule or a cap are
  // passed over: read more than needed.
  auto limit =
      policy.lead_local_time || policy.purpose != domain::calling_purpose::none || policy.tenant_cap
          ? want * 4
          : want;
  auto candidates =
      storage::dial_candidates(sql, tenant_id, campaign_id, now, policy.max_call_attempts,
                               policy.max_daily_attempts, today, limit);
  std::erase_if(candidates, [&](const storage::dial_candidate& lead) {
    return domain::can_dial_at(lead.state, policy, {lead.phone_number, lead.where}, now) !=
           domain::dial_refusal::none;
  });
  auto contacts = lock_capped_contacts(sql, tenant_id, policy, candidates, now);
  std::map<int64_t, std::string> last_numbers;
  if (pool)
    last_numbers = storage::last_caller_numbers(sql, tenant_id, called_before(candidates));
  bool numbers_used_up = false;
  for (auto& lead : candidates) {
    if (static_cast<int32_t>(out.size()) == want)
      break;
    auto& recent = contacts[lead.phone_number];
    if (domain::contact_cap_hold(policy, {lead.phone_number, lead.where, recent}, now))
      continue;
    auto from = c.phone_number_id;
    if (pool) {
      const auto last = last_numbers.find(lead.lead_id);
      const auto picked = domain::pick_pool_number(
          pool->numbers, pool->daily_cap_per_number,
          last == last_numbers.end() ? std::nullopt
                                     : std::optional<std::string_view>{last->second});
      if (!picked) {
        numbers_used_up = true;
        break;
      }
      auto& number = pool->numbers[*picked];
      ++number.calls_today;
      from = number.phone_number_id;
    }
    auto next = domain::start_attempt(lead.state, policy, now);
    storage::store_call_state(sql, tenant_id, lead.lead_id, next);
    call_placement p;
    p.tenant_id = tenant_id;
    p.campaign_id = campaign_id;
    p.call_id =
        storage::insert_call(sql, tenant_id, campaign_id, lead.lead_id, lead.phone_number,
                             *c.voice_provider_id, next.attempts_made, cfg.node_id, from, now);
    recent.insert(recent.begin(), now);
    p.lead_id = lead.lead_id;
    p.phone_number = lead.phone_number;
    p.attempt = next.attempts_made;
    p.provider_kind = slots->kind;
    p.voice_provider_id = *c.voice_provider_id;
    p.credentials = slots->credentials;
    p.assistant_id = c.assistant_id;
    p.calling_entity = c.provider_a_calling_entity;
    p.phone_number_id = std::move(from);
    p.script = lead.script;
    p.evaluation_script = lead.evaluation_script;
    p.lead = std::move(lead.lead);
    out.push_back(std::move(p));
  }
  if (pool && !out.empty())
    storage::store_pool_use(sql, *pool, now);
  // The pool's numbers are free again on its next day. A full batch may
  // leave more callable leads; otherwise look again after the idle poll (or
  // sooner, when a call ends or a lead is added).
  if (numbers_used_up)
    next_look(sql, c, domain::capacity_of(*pool, now).next_day);
  else if (static_cast<int32_t>(out.size()) == want)
    next_look(sql, c, now + cfg.dial_busy_poll);
  else
    next_look(sql, c, now + cfg.settings.dial_idle_poll());
  return out;
}

bool apply_call_update(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                       const call_update& update, domain::timestamp now) {
  auto call = storage::find_open_call(sql, tenant_id, update.call_id);
  if (!call || call->campaign_id != campaign_id)
    return false;
  auto c = storage::find_campaign(sql, tenant_id, campaign_id);
  if (!c)
    return false;
  auto policy = domain::policy_of(*c, c->lead_local_time);
  auto lead = storage::find_call_state(sql, tenant_id, call->lead_id);
  bool provider_failed = false;
  switch (update.what) {
  case call_update::kind::accepted:
    if (!update.provider_call_id.empty())
      storage::set_provider_call_id(sql, call->id, update.provider_call_id);
    return false;
  case call_update::kind::ringing:
    storage::mark_call_ringing(sql, call->id, update.provider_call_id);
    if (lead) {
      auto next = domain::call_ringing(*lead);
      storage::store_call_state(sql, tenant_id, call->lead_id, next);
      call_event(sql, *c, "call.started", *call, next, std::nullopt, 0, nullptr);
    }
    return false;
  case call_update::kind::refused:
    // A busy provider is no failure of its own; refused credentials pause
    // the campaign at once (every call would be refused).
    provider_failed = update.refusal == domain::placement_refusal::failed &&
                      domain::is_provider_failure("ABANDONED", std::nullopt);
    storage::abandon_call(sql, call->id, update.error, update.refusal);
    if (lead) {
      auto next = domain::abandon_attempt(*lead, policy, now, update.error);
      storage::store_call_state(sql, tenant_id, call->lead_id, next);
      call_event(sql, *c, "call.ended", *call, next, std::nullopt, 0, nullptr);
    }
    if (update.refusal == domain::placement_refusal::credentials &&
        c->status == campaign_status::active)
      if (auto paused = pause_for_credentials(sql, *c, update.error))
        c = std::move(paused);
    break;
  case call_update::kind::ended: {
    using domain::call_outcome;
    bool failed =
        update.outcome == call_outcome::failed || update.outcome == call_outcome::invalid_number;
    const auto outcome = std::string{domain::to_string(update.outcome)};
    provider_failed = domain::is_provider_failure(failed ? "FAILED" : "COMPLETED", outcome);
    std::optional<std::string> error;
    if (!update.error.empty())
      error = update.error;
    auto result = update.result;
    if (auto dropped = domain::keep_within_limits(result); !dropped.empty())
      spdlog::warn("call {}: provider report fields over their limits not kept: {}", call->id,
                   domain::join(dropped));
    storage::end_call(sql, call->id, failed ? "FAILED" : "COMPLETED", outcome,
                      update.duration_seconds, error, result);
    if (lead) {
      auto next = domain::finish_attempt(*lead, update.outcome, policy, now);
      storage::store_call_state(sql, tenant_id, call->lead_id, next);
      call_event(sql, *c, "call.ended", *call, next, update.outcome, update.duration_seconds,
                 &result);
      if (next.answered && !lead->answered)
        call_event(sql, *c, "lead.answered", *call, next, update.outcome, update.duration_seconds,
                   nullptr);
      else if (next.status == domain::call_status::failed)
        call_event(sql, *c, "lead.failed", *call, next, update.outcome, update.duration_seconds,
                   nullptr);
    }
    break;
  }
  }
  if (c->status == campaign_status::active && provider_failed)
    if (auto paused = check_breaker(sql, *c, call->id))
      c = std::move(paused);
  // The slot is free again: the campaign may dial at once.
  if (c->status == campaign_status::active)
    next_look(sql, *c, now);
  return true;
}

} // namespace vcs::actors
