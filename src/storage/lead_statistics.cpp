#include "storage/lead_statistics.hpp"

#include "domain/call_state.hpp"
#include "storage/prepared.hpp"

#include <algorithm>

namespace vcs::storage {

namespace {

// The folded row plus the changes not folded yet, in one snapshot.
constexpr prepared_statement counts_stmt{
    "vcs_lead_counts",
    "SELECT b.campaign_id, b.idle + coalesce(d.idle, 0), b.queued + coalesce(d.queued, 0), "
    "b.in_progress + coalesce(d.in_progress, 0), b.completed + coalesce(d.completed, 0), "
    "b.failed + coalesce(d.failed, 0), b.answered + coalesce(d.answered, 0), "
    "b.dialable + coalesce(d.dialable, 0) FROM campaign_lead_counts b CROSS JOIN LATERAL "
    "(SELECT sum(idle) AS idle, sum(queued) AS queued, sum(in_progress) AS in_progress, "
    "sum(completed) AS completed, sum(failed) AS failed, sum(answered) AS answered, "
    "sum(dialable) AS dialable FROM campaign_lead_count_changes c "
    "WHERE c.campaign_id = b.campaign_id) d "
    "WHERE b.tenant_id = $1 AND b.campaign_id = ANY($2::bigint[])"};

// An arbitrary constant shared by every node (migrations, the billing sweep
// and retention use others).
constexpr int64_t fold_lock_key = 7'216'100'003;

// The oldest $1 changes move into their counter rows; those of deleted
// campaigns find none and go. One node folds at a time (the statement's
// advisory lock $2): two folds would update counter rows in different
// orders.
constexpr prepared_statement fold_stmt{
    "vcs_lead_counts_fold",
    "WITH lock AS (SELECT pg_try_advisory_xact_lock($2) AS ok), "
    "moved AS (DELETE FROM campaign_lead_count_changes WHERE id IN (SELECT id FROM "
    "campaign_lead_count_changes WHERE (SELECT ok FROM lock) ORDER BY id LIMIT $1) RETURNING *), "
    "summed AS (SELECT campaign_id, sum(idle) AS idle, sum(queued) AS queued, "
    "sum(in_progress) AS in_progress, sum(completed) AS completed, sum(failed) AS failed, "
    "sum(answered) AS answered, sum(dialable) AS dialable, "
    "sum(state_do_not_call) AS state_do_not_call, sum(state_invalid) AS state_invalid, "
    "sum(state_answered) AS state_answered, sum(state_in_call) AS state_in_call, "
    "sum(state_failed) AS state_failed, sum(dialable_attempts) AS dialable_attempts "
    "FROM moved GROUP BY campaign_id), "
    "folded AS (UPDATE campaign_lead_counts t SET idle = t.idle + s.idle, "
    "queued = t.queued + s.queued, in_progress = t.in_progress + s.in_progress, "
    "completed = t.completed + s.completed, failed = t.failed + s.failed, "
    "answered = t.answered + s.answered, dialable = t.dialable + s.dialable, "
    "state_do_not_call = t.state_do_not_call + s.state_do_not_call, "
    "state_invalid = t.state_invalid + s.state_invalid, "
    "state_answered = t.state_answered + s.state_answered, "
    "state_in_call = t.state_in_call + s.state_in_call, "
    "state_failed = t.state_failed + s.state_failed, "
    "dialable_attempts = t.dialable_attempts + s.dialable_attempts FROM summed s "
    "WHERE t.campaign_id = s.campaign_id RETURNING 1) "
    "SELECT count(*) FROM moved"};

// What leads_dialable_idx holds of campaign $2, as lead `l` (the dialer's
// candidates statement asks the same of a lead, and time of it:
// dialer_repository.cpp).
#define VCS_DIALABLE                                                                               \
  "l.campaign_id = $2 AND l.call_status = 'IDLE' AND NOT l.answered AND NOT l.do_not_call "        \
  "AND NOT l.invalid"

// The planner probes the campaign's leads per listed number or the list per
// lead, whichever side is smaller.
constexpr prepared_statement listed_stmt{
    "vcs_listed_dialable",
    "SELECT count(*) FROM do_not_call_numbers n JOIN leads l ON l.phone_number = n.phone_number "
    "AND " VCS_DIALABLE " WHERE n.tenant_id = $1 AND l.tenant_id = $1"};

// The index orders by priority first, so the earliest next attempt is found
// per distinct priority (a skip scan: one probe for the next priority down,
// one for its first unlisted lead) and the least of those taken.
constexpr prepared_statement first_dialable_stmt{
    "vcs_first_dialable",
    "WITH RECURSIVE p(priority) AS ("
    "(SELECT l.priority FROM leads l WHERE " VCS_DIALABLE " ORDER BY l.priority DESC LIMIT 1) "
    "UNION ALL SELECT (SELECT l.priority FROM leads l WHERE " VCS_DIALABLE
    " AND l.priority < p.priority ORDER BY l.priority DESC LIMIT 1) "
    "FROM p WHERE p.priority IS NOT NULL) "
    "SELECT min(coalesce(f.next_attempt_after, now())) FROM p CROSS JOIN LATERAL "
    "(SELECT l.next_attempt_after FROM leads l WHERE " VCS_DIALABLE
    " AND l.tenant_id = $1 AND l.priority = p.priority AND NOT EXISTS (SELECT 1 FROM "
    "do_not_call_numbers d WHERE d.tenant_id = $1 AND d.phone_number = l.phone_number) "
    "ORDER BY l.next_attempt_after NULLS FIRST, l.position LIMIT 1) f"};

#undef VCS_DIALABLE

// Columns 1..5 of counts_stmt hold the statuses in the domain's order.
lead_statistics statistics_of(const pg_rows& rows, int i, domain::timestamp counted_at) {
  lead_statistics s;
  s.counted_at = counted_at;
  int col = 1;
  for (auto status : domain::call_statuses()) {
    if (auto n = rows.int64(i, col++); n > 0)
      s.call_statuses.emplace_back(std::string{domain::to_string(status)}, n);
  }
  std::stable_sort(s.call_statuses.begin(), s.call_statuses.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  s.answered = rows.int64(i, 6);
  s.dialable = rows.int64(i, 7);
  return s;
}

} // namespace

std::map<int64_t, lead_statistics> read_lead_counts(soci::session& sql, int64_t tenant_id,
                                                    const std::vector<int64_t>& campaign_ids) {
  auto rows = execute(sql, counts_stmt, {tenant_id, campaign_ids});
  const auto counted_at = domain::now();
  std::map<int64_t, lead_statistics> out;
  for (int i = 0; i < rows.size(); ++i)
    out[rows.int64(i, 0)] = statistics_of(rows, i, counted_at);
  return out;
}

int64_t fold_lead_count_changes(soci::session& sql, int32_t limit) {
  return execute(sql, fold_stmt, {limit, fold_lock_key}).int64(0, 0);
}

lead_statistics read_dial_statistics(soci::session& sql, int64_t tenant_id, int64_t campaign_id) {
  auto s = read_lead_counts(sql, tenant_id, {campaign_id})[campaign_id];
  if (s.dialable == 0)
    return s;
  s.dialable -= execute(sql, listed_stmt, {tenant_id, campaign_id}).int64(0, 0);
  if (s.dialable > 0)
    s.first_dialable_at =
        execute(sql, first_dialable_stmt, {tenant_id, campaign_id}).opt_timestamp(0, 0);
  return s;
}

} // namespace vcs::storage
