#include "storage/forecast_repository.hpp"

#include "storage/dialer_repository.hpp"
#include "storage/prepared.hpp"

#include <soci/soci.h>

namespace vcs::storage {

namespace {

// The folded counters plus the changes not folded yet (as lead_statistics.cpp).
constexpr prepared_statement tally_stmt{
    "vcs_forecast_tally",
    "SELECT b.state_do_not_call + coalesce(d.state_do_not_call, 0), "
    "b.state_invalid + coalesce(d.state_invalid, 0), "
    "b.state_answered + coalesce(d.state_answered, 0), "
    "b.state_in_call + coalesce(d.state_in_call, 0), "
    "b.state_failed + coalesce(d.state_failed, 0), b.dialable + coalesce(d.dialable, 0), "
    "b.dialable_attempts + coalesce(d.dialable_attempts, 0) FROM campaign_lead_counts b "
    "CROSS JOIN LATERAL (SELECT sum(state_do_not_call) AS state_do_not_call, "
    "sum(state_invalid) AS state_invalid, sum(state_answered) AS state_answered, "
    "sum(state_in_call) AS state_in_call, sum(state_failed) AS state_failed, "
    "sum(dialable) AS dialable, sum(dialable_attempts) AS dialable_attempts "
    "FROM campaign_lead_count_changes c WHERE c.campaign_id = b.campaign_id) d "
    "WHERE b.tenant_id = $1 AND b.campaign_id = $2"};

// The leads not marked do-not-call whose number is on the tenant's list, by
// the state the counters gave them (columns as tally_stmt's 2..7).
constexpr prepared_statement listed_stmt{
    "vcs_forecast_listed",
    "SELECT count(*) FILTER (WHERE l.invalid), "
    "count(*) FILTER (WHERE NOT l.invalid AND (l.answered OR l.call_status = 'COMPLETED')), "
    "count(*) FILTER (WHERE NOT l.invalid AND NOT l.answered "
    "AND l.call_status IN ('QUEUED', 'IN_PROGRESS')), "
    "count(*) FILTER (WHERE NOT l.invalid AND NOT l.answered AND l.call_status = 'FAILED'), "
    "count(*) FILTER (WHERE NOT l.invalid AND NOT l.answered AND l.call_status = 'IDLE'), "
    "coalesce(sum(l.attempts_made) FILTER (WHERE NOT l.invalid AND NOT l.answered "
    "AND l.call_status = 'IDLE'), 0) "
    "FROM do_not_call_numbers n JOIN leads l ON l.phone_number = n.phone_number "
    "WHERE n.tenant_id = $1 AND l.tenant_id = $1 AND l.campaign_id = $2 AND NOT l.do_not_call"};

// What leads_attempted_idx holds of campaign $2, as lead `l`, less the
// numbers on the tenant's do-not-call list (counted above).
#define VCS_ATTEMPTED                                                                              \
  "l.campaign_id = $2 AND l.tenant_id = $1 AND l.call_status = 'IDLE' AND NOT l.answered "         \
  "AND NOT l.do_not_call AND NOT l.invalid AND l.next_attempt_after IS NOT NULL AND NOT EXISTS "   \
  "(SELECT 1 FROM do_not_call_numbers d WHERE d.tenant_id = $1 AND d.phone_number = "              \
  "l.phone_number)"

// Every attempt used ($3 = max_call_attempts): one index range.
constexpr prepared_statement exhausted_stmt{
    "vcs_forecast_exhausted",
    "SELECT count(*), coalesce(sum(l.attempts_made), 0) FROM leads l WHERE " VCS_ATTEMPTED
    " AND l.attempts_made >= $3::int"};

// Per number of attempts below $3, the leads whose next attempt is after $4
// (the start of the local day $5: a lead called today is among them): those
// with max_daily_attempts ($6) made today, and the others still in their
// gap at $7. One index range each.
constexpr prepared_statement waiting_stmt{
    "vcs_forecast_waiting",
    "SELECT coalesce(sum(w.capped), 0), coalesce(sum(w.gap), 0) "
    "FROM generate_series(0, $3::int - 1) k CROSS JOIN LATERAL (SELECT "
    "count(*) FILTER (WHERE l.daily_attempts_day = $5::date AND l.daily_attempts >= $6::int) "
    "AS capped, count(*) FILTER (WHERE (l.daily_attempts_day = $5::date "
    "AND l.daily_attempts >= $6::int) IS NOT TRUE AND l.next_attempt_after > $7::timestamptz) "
    "AS gap FROM leads l WHERE " VCS_ATTEMPTED " AND l.attempts_made = k "
    "AND l.next_attempt_after > $4::timestamptz) w"};

#undef VCS_ATTEMPTED

// The last $3 ended calls that reached the provider: how many, their mean
// time on a line in milliseconds, and how many were answered ($4: a
// voicemail counts).
constexpr prepared_statement sample_stmt{
    "vcs_forecast_calls",
    "SELECT count(*), coalesce(round(avg(extract(epoch FROM ended_at - created_at)) * 1000), 0)"
    "::bigint, count(*) FILTER (WHERE outcome = 'human' OR (outcome = 'voicemail' AND $4::bool)) "
    "FROM (SELECT created_at, ended_at, outcome FROM calls WHERE tenant_id = $1 "
    "AND campaign_id = $2 AND ended_at IS NOT NULL AND status <> 'ABANDONED' "
    "ORDER BY id DESC LIMIT $3::int) recent"};

} // namespace

forecast_inputs read_forecast_inputs(soci::session& sql, const domain::campaign& c,
                                     domain::timestamp now) {
  const auto tenant_id = c.tenant_id;
  const auto campaign_id = c.id;
  // One snapshot for every count, so that they add up while leads change.
  soci::transaction tx{sql};
  sql << "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY";
  forecast_inputs in;
  in.policy = domain::policy_of(c, c.lead_local_time);
  in.facts = read_dial_facts(sql, c, in.policy, now);
  if (c.voice_provider_id)
    if (auto use = read_line_use(sql, tenant_id, *c.voice_provider_id)) {
      in.lines = use->lines;
      in.free_lines = use->lines - use->open;
    }

  auto& t = in.leads;
  if (auto rows = execute(sql, tally_stmt, {tenant_id, campaign_id}); rows.size() > 0) {
    t = {rows.int64(0, 0), rows.int64(0, 1), rows.int64(0, 2), rows.int64(0, 3),
         rows.int64(0, 4), rows.int64(0, 5), rows.int64(0, 6)};
  }
  auto listed = execute(sql, listed_stmt, {tenant_id, campaign_id});
  const int64_t moved[] = {listed.int64(0, 0), listed.int64(0, 1), listed.int64(0, 2),
                           listed.int64(0, 3), listed.int64(0, 4)};
  t.invalid -= moved[0];
  t.answered -= moved[1];
  t.in_call -= moved[2];
  t.failed -= moved[3];
  t.callable -= moved[4];
  t.callable_attempts -= listed.int64(0, 5);
  for (auto n : moved)
    t.do_not_call += n;

  const auto max_attempts = in.policy.max_call_attempts;
  auto exhausted = execute(sql, exhausted_stmt, {tenant_id, campaign_id, max_attempts});
  t.exhausted = exhausted.int64(0, 0);
  t.exhausted_attempts = exhausted.int64(0, 1);
  auto waiting =
      execute(sql, waiting_stmt,
              {tenant_id, campaign_id, max_attempts, domain::local_day_start(in.policy, now),
               domain::local_day(in.policy.zone, now), in.policy.max_daily_attempts, now});
  t.daily_capped = waiting.int64(0, 0);
  t.in_gap = waiting.int64(0, 1);

  auto sample =
      execute(sql, sample_stmt,
              {tenant_id, campaign_id, domain::call_sample_size, in.policy.voicemail_is_answer});
  in.calls = {sample.int64(0, 0), static_cast<double>(sample.int64(0, 1)) / 1000.0,
              sample.int64(0, 2)};
  tx.commit();
  return in;
}

} // namespace vcs::storage
