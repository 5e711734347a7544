#include "actors/billing_work.hpp"

#include "actors/campaign_events.hpp"
#include "domain/billing.hpp"
#include "domain/call_state.hpp"
#include "domain/subscription_rules.hpp"
#include "storage/billing_repository.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/storage_error.hpp"
#include "storage/subscription_repository.hpp"

namespace vcs::actors {

namespace {

// A run of periods the sweep may roll over at once (a subscription left
// unswept for years catches up over several sweeps).
constexpr int max_periods_per_sweep = 36;

domain::error payment_not_found() {
  return domain::not_found("Payment request not found");
}

// Pauses the client's campaigns for `reason`, each with its campaign.paused
// event; returns how many.
int64_t pause_campaigns(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                        int64_t client_id, domain::pause_reason reason) {
  int64_t paused = 0;
  for (const auto& moved :
       storage::pause_client_campaigns(sql, tenant_id, subscription_id, client_id, reason)) {
    ++paused;
    if (auto c = storage::find_campaign(sql, tenant_id, moved.id))
      status_event(sql, *c, moved.previous, domain::cause_of(reason));
  }
  return paused;
}

// Gives back the client's campaigns paused for `reason`, each with the
// event of the status it got back.
void resume_campaigns(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                      domain::pause_reason reason) {
  for (auto id : storage::resume_paused_campaigns(sql, tenant_id, subscription_id, reason))
    if (auto c = storage::find_campaign(sql, tenant_id, id))
      status_event(sql, *c, domain::campaign_status::paused, domain::cause_of(reason));
}

// After the subscription's minutes or status changed: an active
// subscription whose minutes are used up pauses its client's campaigns
// (usage_exhausted), and one with minutes again gives back those it paused.
// Past_due and blocked subscriptions hold the campaigns by the billing
// rules; their payment settles the minutes again.
void settle_usage_pauses(soci::session& sql, int64_t tenant_id, int64_t subscription_id) {
  auto b = storage::load_subscription_billing(sql, tenant_id, subscription_id);
  if (!b || b->status != "active")
    return;
  if (domain::minutes_exhausted(b->usage, b->minute_price_units))
    pause_campaigns(sql, tenant_id, subscription_id, b->client_id,
                    domain::pause_reason::usage_exhausted);
  else
    resume_campaigns(sql, tenant_id, subscription_id, domain::pause_reason::usage_exhausted);
}

// Applies the subscription rules after one of its requests moved to
// `request_status`.
void apply_rules(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                 const std::string& request_type, const std::string& request_status,
                 sweep_counts& counts) {
  auto state = storage::lock_subscription(sql, tenant_id, subscription_id);
  if (!state)
    return;
  auto unresolved = request_status == "PAID"
                        ? storage::unresolved_cycle_requests(sql, tenant_id, subscription_id)
                        : 0;
  auto next = domain::after_payment_change(state->status, request_type, request_status, unresolved);
  if (next.status == state->status)
    return;
  storage::set_subscription_status(sql, tenant_id, subscription_id, next.status);
  if (next.pause_campaigns) {
    ++counts.past_due;
    counts.campaigns_paused += pause_campaigns(sql, tenant_id, subscription_id, state->client_id,
                                               domain::pause_reason::billing);
  }
  if (next.resume_campaigns) {
    resume_campaigns(sql, tenant_id, subscription_id, domain::pause_reason::billing);
    settle_usage_pauses(sql, tenant_id, subscription_id);
  }
}

domain::minute_balance balance_of(const domain::usage_record& u) {
  return {
      domain::to_units(u.minutes_included_limit, 2), domain::to_units(u.minutes_included_used, 2),
      domain::to_units(u.minutes_addon_balance, 2), domain::to_units(u.minutes_billable_used, 2)};
}

domain::error subscription_not_found() {
  return domain::not_found("Subscription not found");
}

// The balance after `change`, stored; the subscription must exist.
template <class Change>
domain::result<domain::usage_record> change_usage(soci::session& sql, int64_t tenant_id,
                                                  int64_t subscription_id, Change change) {
  auto before = storage::find_usage(sql, tenant_id, subscription_id);
  if (!before)
    return subscription_not_found();
  auto stored = storage::store_usage(sql, tenant_id, subscription_id, change(balance_of(*before)));
  if (!stored)
    return subscription_not_found();
  return std::move(*stored);
}

std::string money(int64_t cents) {
  return domain::from_units(cents, 2, 2);
}

// Closes the period ending at b.period_end and opens the next.
void roll_over(soci::session& sql, const entity_config& cfg, int64_t tenant_id,
               int64_t subscription_id, storage::subscription_billing& b, sweep_counts& counts) {
  auto start = b.period_end;
  auto end = domain::next_period_end(b.anchor, b.interval, b.period_end);
  auto due = start + cfg.settings.payment_due();
  auto grace = due + cfg.settings.grace_period();
  auto billable = b.usage.billable_used;
  if (auto cents = domain::overage_cents(billable, b.minute_price_units); cents > 0) {
    storage::insert_cycle_request(sql, tenant_id, subscription_id,
                                  {b.client_id, "OVERAGE", money(cents), b.currency, due, grace,
                                   b.period_start, b.period_end, "Overage minutes",
                                   domain::from_units(billable, 2, 2),
                                   domain::from_units(b.minute_price_units, 4, 2)});
    ++counts.overage_requests;
  }
  storage::start_period(sql, tenant_id, subscription_id, start, end, b.included_hundredths);
  ++counts.renewed;
  if (auto cents = domain::flat_cents(b.flat_price_units); cents > 0) {
    storage::insert_cycle_request(sql, tenant_id, subscription_id,
                                  {b.client_id, "SUBSCRIPTION", money(cents), b.currency, due,
                                   grace, start, end, b.product_name, "1", money(cents)});
    ++counts.subscription_requests;
  }
  b.period_start = start;
  b.period_end = end;
  b.usage = {b.included_hundredths, 0, b.usage.addon_balance, 0};
}

} // namespace

domain::result<domain::payment_request> issue_payment(soci::session& sql, const entity_config& cfg,
                                                      int64_t tenant_id,
                                                      const domain::payment_request& req) {
  if (req.subscription_id &&
      !storage::subscription_of_client(sql, tenant_id, req.client_id, *req.subscription_id))
    return subscription_not_found();
  auto p = req;
  if (domain::is_cycle_request(p.type) && !p.grace_period_ends_at)
    p.grace_period_ends_at = p.due_date + cfg.settings.grace_period();
  return storage::insert_payment_request(sql, tenant_id, p);
}

domain::result<domain::payment_request> change_payment(soci::session& sql, int64_t tenant_id,
                                                       std::optional<int64_t> subscription_id,
                                                       const payment_change& change) {
  auto type = storage::set_payment_status(sql, tenant_id, subscription_id, change.payment_id,
                                          change.status, change.external_payment_id);
  if (!type)
    return payment_not_found();
  if (subscription_id) {
    sweep_counts ignored;
    apply_rules(sql, tenant_id, *subscription_id, *type, change.status, ignored);
  }
  auto updated = storage::find_payment_request(sql, tenant_id, change.payment_id);
  if (!updated)
    return payment_not_found();
  return std::move(*updated);
}

domain::result<domain::usage_record> record_minutes(soci::session& sql, int64_t tenant_id,
                                                    int64_t subscription_id, int64_t hundredths) {
  auto changed =
      change_usage(sql, tenant_id, subscription_id, [hundredths](domain::minute_balance b) {
        return domain::consume(b, hundredths);
      });
  // Using minutes never brings them back: only the last of them is looked
  // at further (each call's minutes pass here).
  if (changed && domain::minutes_used_up(balance_of(*changed)))
    settle_usage_pauses(sql, tenant_id, subscription_id);
  return changed;
}

domain::result<bool> record_call_minutes(soci::session& sql, int64_t tenant_id,
                                         int64_t subscription_id, int64_t call_id) {
  auto seconds = storage::take_call_usage(sql, tenant_id, call_id);
  if (!seconds)
    return false;
  if (auto hundredths = domain::billable_hundredths(std::chrono::seconds{*seconds}); hundredths > 0)
    if (auto recorded = record_minutes(sql, tenant_id, subscription_id, hundredths); !recorded)
      return std::move(recorded).err();
  return true;
}

domain::result<domain::usage_record> add_addon_minutes(soci::session& sql, int64_t tenant_id,
                                                       int64_t subscription_id,
                                                       int64_t hundredths) {
  auto changed =
      change_usage(sql, tenant_id, subscription_id, [hundredths](domain::minute_balance b) {
        b.addon_balance += hundredths;
        return b;
      });
  if (changed)
    settle_usage_pauses(sql, tenant_id, subscription_id);
  return changed;
}

sweep_counts sweep_subscription(soci::session& sql, const entity_config& cfg, int64_t tenant_id,
                                int64_t subscription_id, domain::timestamp now) {
  sweep_counts counts;
  counts.subscriptions = 1;
  auto b = storage::load_subscription_billing(sql, tenant_id, subscription_id);
  if (!b)
    return counts;
  if (b->status == "active" || b->status == "past_due")
    for (int i = 0; i < max_periods_per_sweep && b->period_end <= now; ++i)
      roll_over(sql, cfg, tenant_id, subscription_id, *b, counts);
  for (const auto& type : storage::mark_overdue(sql, tenant_id, subscription_id, now)) {
    ++counts.overdue;
    apply_rules(sql, tenant_id, subscription_id, type, "OVERDUE", counts);
  }
  auto state = storage::lock_subscription(sql, tenant_id, subscription_id);
  if (state && state->status == "past_due" &&
      storage::grace_expired(sql, tenant_id, subscription_id, now)) {
    storage::set_subscription_status(sql, tenant_id, subscription_id, "blocked");
    ++counts.blocked;
  }
  // A new period brings the product's minutes back.
  if (counts.renewed > 0)
    settle_usage_pauses(sql, tenant_id, subscription_id);
  return counts;
}

} // namespace vcs::actors
