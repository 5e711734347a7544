#include "storage/dialer_repository.hpp"

#include "domain/global_id.hpp"
#include "domain/phone_number_pool.hpp"
#include "domain/provider_signature.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/phone_number_pool_repository.hpp"
#include "storage/prepared.hpp"

#include <algorithm>
#include <stdexcept>

namespace vcs::storage {

namespace {

// The lead fields that say where its person is (domain::callee_of), as the
// last two columns of the statements that read them.
#define LEAD_PLACE_COLUMNS                                                                         \
  "coalesce(custom_fields->>'state', custom_fields->>'province'), custom_fields->>'postal_code'"

constexpr prepared_statement candidates_stmt{
    "vcs_dial_candidates",
    "SELECT l.id, l.phone_number, l.call_status, l.answered, l.answer_type, l.attempts_made, "
    "l.daily_attempts, l.daily_attempts_day::text, l.next_attempt_after, l.answered_at, "
    "l.call_error_reason, l.do_not_call, l.invalid, l.invalid_reason, "
    "l.custom_fields->>'simulated_outcomes', l.custom_fields->>'simulated_evaluations', "
    "l.first_name, l.last_name, l.email, l.custom_fields::text, " LEAD_PLACE_COLUMNS
    " FROM leads l "
    "WHERE l.campaign_id = $1 AND l.tenant_id = $2 AND l.call_status = 'IDLE' AND NOT l.answered "
    "AND NOT l.do_not_call AND NOT l.invalid "
    "AND (l.next_attempt_after IS NULL OR l.next_attempt_after <= $3::timestamptz) "
    "AND l.attempts_made < $4::int "
    "AND (l.daily_attempts_day IS DISTINCT FROM $5::date OR l.daily_attempts < $6::int) "
    "AND NOT EXISTS (SELECT 1 FROM do_not_call_numbers d WHERE d.tenant_id = $2 "
    "AND d.phone_number = l.phone_number) "
    "ORDER BY l.priority DESC, l.next_attempt_after NULLS FIRST, l.position LIMIT $7::int"};

constexpr prepared_statement state_stmt{
    "vcs_lead_call_state",
    "SELECT id, phone_number, call_status, answered, answer_type, attempts_made, daily_attempts, "
    "daily_attempts_day::text, next_attempt_after, answered_at, call_error_reason, do_not_call, "
    "invalid, invalid_reason FROM leads WHERE tenant_id = $1 AND id = $2"};

constexpr prepared_statement page_states_stmt{
    "vcs_page_call_states",
    "SELECT id, phone_number, call_status, answered, answer_type, attempts_made, daily_attempts, "
    "daily_attempts_day::text, next_attempt_after, answered_at, call_error_reason, do_not_call, "
    "invalid, invalid_reason, " LEAD_PLACE_COLUMNS " FROM leads WHERE tenant_id = $1 "
    "AND campaign_id = $2 AND id = ANY($3::bigint[])"};

constexpr prepared_statement listed_numbers_stmt{
    "vcs_listed_numbers", "SELECT phone_number FROM do_not_call_numbers WHERE tenant_id = $1 "
                          "AND phone_number = ANY($2::text[])"};

constexpr prepared_statement line_limit_stmt{
    "vcs_line_limit", "SELECT coalesce(concurrency_limit, 10) FROM voice_providers "
                      "WHERE tenant_id = $1 AND id = $2"};

constexpr prepared_statement lock_states_stmt{
    "vcs_lock_call_states",
    "SELECT id, phone_number, call_status, answered, answer_type, attempts_made, daily_attempts, "
    "daily_attempts_day::text, next_attempt_after, answered_at, call_error_reason, do_not_call, "
    "invalid, invalid_reason FROM leads WHERE tenant_id = $1 AND campaign_id = $2 "
    "AND phone_number = ANY($3::text[]) ORDER BY id FOR UPDATE"};

// Every write's fields as one text array per column (pg_param's text forms).
constexpr prepared_statement store_stmt{
    "vcs_store_call_states",
    "UPDATE leads l SET call_status = s.status, answered = s.answered::boolean, "
    "answer_type = s.answer_type, attempts_made = s.attempts::int, "
    "daily_attempts = s.daily::int, daily_attempts_day = s.day::date, "
    "next_attempt_after = s.next::timestamptz, answered_at = s.answered_at::timestamptz, "
    "call_error_reason = s.error, invalid = s.invalid::boolean, invalid_reason = s.invalid_reason "
    "FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], "
    "$8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[]) "
    "AS s(id, status, answered, answer_type, attempts, daily, day, next, answered_at, error, "
    "invalid, invalid_reason) WHERE l.tenant_id = $1 AND l.id = s.id"};

constexpr prepared_statement provider_stmt{
    "vcs_provider_slots",
    "SELECT voice_provider, coalesce(concurrency_limit, 10), "
    "encode(credentials_ciphertext, 'hex'), encode(credentials_nonce, 'hex') "
    "FROM voice_providers WHERE tenant_id = $1 AND id = $2 FOR NO KEY UPDATE"};

// A statement of its own after the lock: under READ COMMITTED it reads a
// snapshot taken after the lock was granted, so it counts the calls of the
// transaction that held the lock before (a subquery in the locking statement
// would use that statement's older snapshot).
constexpr prepared_statement open_calls_stmt{
    "vcs_open_calls", "SELECT count(*) FROM calls WHERE voice_provider_id = $1 "
                      "AND ended_at IS NULL"};

constexpr prepared_statement insert_call_stmt{
    "vcs_insert_call",
    "INSERT INTO calls (tenant_id, campaign_id, lead_id, phone_number, voice_provider_id, attempt, "
    "node_id, phone_number_id, dialed_at) VALUES ($1, $2, $3, $4, $5, $6::int, $7, $8, "
    "$9::timestamptz) RETURNING id"};

// The tenant's calls to each number since $3 that reached the provider,
// newest first, at most $4 a number (on calls_contact_idx).
constexpr prepared_statement recent_contacts_stmt{
    "vcs_recent_contacts",
    "SELECT phone_number, at FROM (SELECT phone_number, coalesce(dialed_at, created_at) AS at, "
    "row_number() OVER (PARTITION BY phone_number ORDER BY coalesce(dialed_at, created_at) DESC) "
    "AS n FROM calls WHERE tenant_id = $1 AND phone_number = ANY($2::text[]) "
    "AND coalesce(dialed_at, created_at) > $3::timestamptz AND status <> 'ABANDONED') r "
    "WHERE n <= $4::int ORDER BY phone_number, at DESC"};

// One transaction-scoped lock per number of the tenant, in the array's
// order (a class of its own in the two-key space: 1769 is the imports').
constexpr prepared_statement lock_contacts_stmt{
    "vcs_lock_contacts", "SELECT pg_advisory_xact_lock(1770, hashtext($1::text || ':' || n)) "
                         "FROM unnest($2::text[]) AS n"};

constexpr prepared_statement open_call_stmt{
    "vcs_open_call", "SELECT c.id, c.campaign_id, c.lead_id, c.phone_number, c.attempt, c.status, "
                     "coalesce(l.custom_fields, '{}'::jsonb)::text, c.phone_number_id FROM calls c "
                     "LEFT JOIN leads l ON l.tenant_id = c.tenant_id AND l.id = c.lead_id "
                     "WHERE c.tenant_id = $1 AND c.id = $2 AND c.ended_at IS NULL"};

// A vendor that answers two placements with one id keeps the first call's:
// the second is found by our own id (which every vendor echoes) instead of
// failing its report on the unique index.
#define VCS_PROVIDER_ID_OR_KEPT                                                                    \
  "CASE WHEN EXISTS (SELECT 1 FROM calls o WHERE o.voice_provider_id = calls.voice_provider_id "   \
  "AND o.provider_call_id = $2 AND o.id <> calls.id) THEN calls.provider_call_id ELSE $2 END"

constexpr prepared_statement ringing_stmt{
    "vcs_call_ringing",
    "UPDATE calls SET status = 'IN_PROGRESS', ringing_at = now(), "
    "provider_call_id = " VCS_PROVIDER_ID_OR_KEPT " WHERE id = $1 AND ended_at IS NULL"};

constexpr prepared_statement provider_call_stmt{
    "vcs_provider_call_id", "UPDATE calls SET provider_call_id = " VCS_PROVIDER_ID_OR_KEPT
                            " WHERE id = $1 AND provider_call_id IS NULL"};
#undef VCS_PROVIDER_ID_OR_KEPT

constexpr prepared_statement route_stmt{
    "vcs_route_call", "SELECT tenant_id, campaign_id, id FROM calls WHERE voice_provider_id = $1 "
                      "AND (id = $2::bigint OR ($2::bigint IS NULL AND provider_call_id = $3))"};

// A configuration by id alone: a provider's callback names it in its path
// and proves itself with the configuration's credentials.
constexpr prepared_statement callback_provider_stmt{
    "vcs_callback_provider",
    "SELECT tenant_id, voice_provider, encode(credentials_ciphertext, 'hex'), "
    "encode(credentials_nonce, 'hex') FROM voice_providers WHERE id = $1"};

// $3: domain::signature_replay_window_ms, longer than any signature passes.
constexpr prepared_statement callback_seen_stmt{
    "vcs_callback_seen", "SELECT 1 FROM provider_callbacks_seen WHERE voice_provider_id = $1 "
                         "AND digest = $2 AND seen_at > now() - $3::bigint * interval '1 ms'"};

// Older rows cannot match a signature that passes: they go as new ones come.
constexpr prepared_statement mark_seen_stmt{
    "vcs_mark_callback_seen",
    "WITH old AS (DELETE FROM provider_callbacks_seen WHERE voice_provider_id = $1 "
    "AND seen_at <= now() - $3::bigint * interval '1 ms') "
    "INSERT INTO provider_callbacks_seen (voice_provider_id, digest) VALUES ($1, $2) "
    "ON CONFLICT (voice_provider_id, digest) DO UPDATE SET seen_at = now()"};

// Fills what an ended call's result lacks; what was reported first stays.
constexpr prepared_statement amend_result_stmt{
    "vcs_amend_call_result", "UPDATE calls SET summary = coalesce(summary, $3), "
                             "success_evaluation = coalesce(success_evaluation, $4), "
                             "structured_data = coalesce(structured_data, $5), "
                             "evaluation_verdict = coalesce(evaluation_verdict, $6) "
                             "WHERE tenant_id = $1 AND id = $2 AND ended_at IS NOT NULL"};

constexpr prepared_statement end_call_stmt{
    "vcs_end_call",
    "UPDATE calls SET status = $2, outcome = $3, duration_seconds = $4::int, error = $5, "
    "summary = $6, transcript = $7, recording_url = $8, success_evaluation = $9, "
    "structured_data = $10, ended_reason = $11, cost = $12::numeric, evaluation_verdict = $13, "
    "ended_at = now() WHERE id = $1 AND ended_at IS NULL"};

constexpr prepared_statement endings_stmt{
    "vcs_recent_call_endings",
    "SELECT status, outcome, count(*) FROM (SELECT status, outcome FROM calls "
    "WHERE tenant_id = $1 AND campaign_id = $2 AND id > $3 AND ended_at IS NOT NULL "
    "AND refusal IS DISTINCT FROM 'busy' ORDER BY id DESC LIMIT $4::int) recent "
    "GROUP BY status, outcome"};

constexpr prepared_statement abandon_call_stmt{
    "vcs_abandon_call", "UPDATE calls SET status = 'ABANDONED', error = $2, refusal = $3, "
                        "ended_at = now() WHERE id = $1 AND ended_at IS NULL"};

constexpr prepared_statement next_dial_stmt{
    "vcs_next_dial", "UPDATE campaigns SET next_dial_at = $3::timestamptz, dial_claimed_by = NULL "
                     "WHERE tenant_id = $1 AND id = $2"};

// A campaign whose pass never set its next look is due again now (one
// without a next look, paused meanwhile, stays without).
constexpr prepared_statement release_dial_stmt{
    "vcs_release_dial_claims",
    "UPDATE campaigns SET dial_claimed_by = NULL, next_dial_at = CASE WHEN next_dial_at IS NULL "
    "THEN NULL ELSE least(next_dial_at, now()) END WHERE dial_claimed_by = $1 RETURNING 1"};

#define VCS_CLAIM_SQL(locking)                                                                     \
  "UPDATE campaigns c SET next_dial_at = $1::timestamptz + make_interval(secs => $2::int), "       \
  "dial_claimed_by = $4 "                                                                          \
  "FROM (SELECT id FROM campaigns WHERE status IN ('SCHEDULED', 'ACTIVE') "                        \
  "AND next_dial_at IS NOT NULL AND next_dial_at <= $1::timestamptz "                              \
  "AND tenant_id IN (SELECT id FROM switched_on_tenants) ORDER BY next_dial_at "                   \
  "LIMIT $3::int " locking ") due WHERE c.id = due.id RETURNING c.tenant_id, c.id"
constexpr prepared_statement claim_stmt{"vcs_claim_due_campaigns",
                                        VCS_CLAIM_SQL("FOR UPDATE SKIP LOCKED")};
// On demand: waits for campaigns busy in a transaction instead of skipping.
constexpr prepared_statement claim_waiting_stmt{"vcs_claim_due_campaigns_waiting",
                                                VCS_CLAIM_SQL("FOR UPDATE")};
#undef VCS_CLAIM_SQL

// The coarse end_date test uses the index; the zone-exact one follows.
constexpr prepared_statement past_end_stmt{
    "vcs_campaigns_past_end",
    "SELECT tenant_id, id FROM campaigns WHERE status <> 'ENDED' AND end_date IS NOT NULL "
    "AND end_date < ($1::timestamptz AT TIME ZONE 'UTC')::date + 1 "
    "AND end_date < ($1::timestamptz AT TIME ZONE coalesce(timezone, 'UTC'))::date "
    "ORDER BY end_date, id LIMIT $2::int"};

constexpr prepared_statement lost_stmt{
    "vcs_lost_calls", "SELECT tenant_id, campaign_id, id FROM calls WHERE ended_at IS NULL "
                      "AND created_at < now() - make_interval(secs => $1::int) "
                      "ORDER BY created_at LIMIT $2::int"};

constexpr prepared_statement usage_due_stmt{
    "vcs_calls_without_usage",
    "SELECT tenant_id, campaign_id, id FROM calls WHERE ended_at IS NOT NULL "
    "AND NOT usage_recorded ORDER BY ended_at LIMIT $1::int"};

// Campaign ids in assignments are stored as canonical global ids.
constexpr prepared_statement subscription_stmt{
    "vcs_campaign_subscription",
    "SELECT s.id FROM assigned_resources ar JOIN account_configurations ac "
    "ON ac.tenant_id = ar.tenant_id AND ac.id = ar.account_configuration_id "
    "JOIN subscriptions s ON s.tenant_id = ac.tenant_id AND s.client_id = ac.client_id "
    "WHERE ar.tenant_id = $1 AND ar.resource_kind = 'campaign' AND ar.resource_id = $2 "
    "AND s.status <> 'canceled' ORDER BY s.id LIMIT 1"};

constexpr prepared_statement take_usage_stmt{
    "vcs_take_call_usage",
    "UPDATE calls SET usage_recorded = true WHERE tenant_id = $1 AND id = $2 "
    "AND ended_at IS NOT NULL AND NOT usage_recorded RETURNING duration_seconds"};

constexpr prepared_statement dnc_add_stmt{
    "vcs_dnc_add", "INSERT INTO do_not_call_numbers (tenant_id, phone_number) VALUES ($1, $2) "
                   "ON CONFLICT DO NOTHING RETURNING 1"};
constexpr prepared_statement dnc_remove_stmt{
    "vcs_dnc_remove",
    "DELETE FROM do_not_call_numbers WHERE tenant_id = $1 AND phone_number = $2 RETURNING 1"};
constexpr prepared_statement dnc_find_stmt{
    "vcs_dnc_find", "SELECT 1 FROM do_not_call_numbers WHERE tenant_id = $1 AND phone_number = $2"};

#undef LEAD_PLACE_COLUMNS

// Columns 2..13 of candidates_stmt, state_stmt and lock_states_stmt.
domain::lead_call_state state_of(const pg_rows& rows, int i) {
  domain::lead_call_state s;
  s.status = rows.parsed(i, 2, domain::parse_call_status);
  s.answered = rows.boolean(i, 3);
  s.answer_type = std::string{rows.text(i, 4)};
  s.attempts_made = rows.int32(i, 5);
  s.daily_attempts = rows.int32(i, 6);
  s.daily_attempts_day = rows.opt_text(i, 7);
  s.next_attempt_after = rows.opt_timestamp(i, 8);
  s.answered_at = rows.opt_timestamp(i, 9);
  s.call_error_reason = rows.opt_text(i, 10);
  s.do_not_call = rows.boolean(i, 11);
  s.invalid = rows.boolean(i, 12);
  s.invalid_reason = rows.opt_text(i, 13);
  return s;
}

// The lead's place from its number and LEAD_PLACE_COLUMNS at `col`.
domain::callee place_of(const pg_rows& rows, int i, int col, std::string_view phone) {
  const auto state = rows.opt_text(i, col);
  const auto postal = rows.opt_text(i, col + 1);
  return domain::callee_of(phone, state ? std::optional<std::string_view>{*state} : std::nullopt,
                           postal ? std::optional<std::string_view>{*postal} : std::nullopt);
}

} // namespace

domain::campaign_dial_facts read_dial_facts(soci::session& sql, const domain::campaign& c,
                                            const domain::dial_policy& p, domain::timestamp now) {
  using domain::campaign_status;
  domain::campaign_dial_facts facts;
  facts.status = c.status;
  facts.has_start_date = c.start_date.has_value();
  facts.has_voice_provider = c.voice_provider_id.has_value();
  facts.billing_blocked =
      (c.status == campaign_status::active || c.status == campaign_status::scheduled) &&
      domain::phase_at(p, now) != domain::campaign_phase::after_end &&
      blocking_subscription_status(sql, c.tenant_id, c.id).has_value();
  if (auto pool_id = domain::dialing_pool_of(c)) {
    auto pool = find_pool(sql, c.tenant_id, *pool_id, now);
    facts.pool =
        pool ? domain::capacity_of(*pool, now) : domain::campaign_dial_facts::pool_capacity{};
  }
  return facts;
}

std::optional<line_use> read_line_use(soci::session& sql, int64_t tenant_id,
                                      int64_t voice_provider_id) {
  auto limit = execute(sql, line_limit_stmt, {tenant_id, voice_provider_id});
  if (limit.size() == 0)
    return std::nullopt;
  return line_use{limit.int32(0, 0),
                  execute(sql, open_calls_stmt, {voice_provider_id}).int64(0, 0)};
}

std::optional<dial_inputs> read_dial_inputs(soci::session& sql, int64_t tenant_id,
                                            int64_t campaign_id,
                                            const std::vector<int64_t>& lead_ids,
                                            const std::vector<std::string>& phones,
                                            domain::timestamp now) {
  auto c = find_campaign(sql, tenant_id, campaign_id);
  if (!c)
    return std::nullopt;
  dial_inputs in;
  in.policy = domain::policy_of(*c, c->lead_local_time);
  in.facts = read_dial_facts(sql, *c, in.policy, now);
  if (c->voice_provider_id)
    if (auto use = read_line_use(sql, tenant_id, *c->voice_provider_id))
      in.free_lines = use->lines - use->open;
  if (!lead_ids.empty()) {
    auto rows = execute(sql, page_states_stmt, {tenant_id, campaign_id, lead_ids});
    for (int i = 0; i < rows.size(); ++i) {
      in.states[rows.int64(i, 0)] = state_of(rows, i);
      in.places[rows.int64(i, 0)] = place_of(rows, i, 14, rows.text(i, 1));
    }
  }
  if (!phones.empty()) {
    auto rows = execute(sql, listed_numbers_stmt, {tenant_id, phones});
    for (int i = 0; i < rows.size(); ++i)
      in.listed.emplace(rows.text(i, 0));
  }
  if (in.policy.purpose != domain::calling_purpose::none || in.policy.tenant_cap) {
    const auto back = domain::lookback_of(in.policy);
    in.recent = read_recent_contacts(sql, tenant_id, phones, now - back.window, back.calls);
  }
  return in;
}

std::vector<dial_candidate> dial_candidates(soci::session& sql, int64_t tenant_id,
                                            int64_t campaign_id, domain::timestamp now,
                                            int32_t max_attempts, int32_t max_daily,
                                            const std::string& today, int32_t limit) {
  auto rows = execute(sql, candidates_stmt,
                      {campaign_id, tenant_id, now, max_attempts, today, max_daily, limit});
  std::vector<dial_candidate> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    out.push_back({rows.int64(i, 0), std::string{rows.text(i, 1)}, state_of(rows, i),
                   rows.opt_text(i, 14), rows.opt_text(i, 15),
                   domain::call_lead{rows.opt_text(i, 16), rows.opt_text(i, 17),
                                     rows.opt_text(i, 18), std::string{rows.text(i, 19)}},
                   place_of(rows, i, 20, rows.text(i, 1))});
  return out;
}

void store_call_state(soci::session& sql, int64_t tenant_id, int64_t lead_id,
                      const domain::lead_call_state& state) {
  store_call_states(sql, tenant_id, {{lead_id, state}});
}

void store_call_states(soci::session& sql, int64_t tenant_id,
                       const std::vector<lead_state_write>& writes) {
  using text = std::optional<std::string>;
  const auto time = [](const std::optional<domain::timestamp>& t) -> text {
    return t ? text{domain::to_pg_timestamp(*t)} : std::nullopt;
  };
  std::vector<int64_t> ids;
  std::vector<text> status, answered, answer_type, attempts, daily, day, next, answered_at, error,
      invalid, invalid_reason;
  for (const auto& [id, s] : writes) {
    ids.push_back(id);
    status.emplace_back(domain::to_string(s.status));
    answered.emplace_back(s.answered ? "t" : "f");
    answer_type.emplace_back(s.answer_type);
    attempts.emplace_back(std::to_string(s.attempts_made));
    daily.emplace_back(std::to_string(s.daily_attempts));
    day.push_back(s.daily_attempts_day);
    next.push_back(time(s.next_attempt_after));
    answered_at.push_back(time(s.answered_at));
    error.push_back(s.call_error_reason);
    invalid.emplace_back(s.invalid ? "t" : "f");
    invalid_reason.push_back(s.invalid_reason);
  }
  execute(sql, store_stmt,
          {tenant_id, ids, status, answered, answer_type, attempts, daily, day, next, answered_at,
           error, invalid, invalid_reason});
}

std::vector<locked_call_state> lock_call_states(soci::session& sql, int64_t tenant_id,
                                                int64_t campaign_id,
                                                const std::vector<std::string>& phone_numbers) {
  auto rows = execute(sql, lock_states_stmt, {tenant_id, campaign_id, phone_numbers});
  std::vector<locked_call_state> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    out.push_back({rows.int64(i, 0), std::string{rows.text(i, 1)}, state_of(rows, i)});
  return out;
}

std::optional<domain::lead_call_state> find_call_state(soci::session& sql, int64_t tenant_id,
                                                       int64_t lead_id) {
  auto rows = execute(sql, state_stmt, {tenant_id, lead_id});
  if (rows.size() == 0)
    return std::nullopt;
  return state_of(rows, 0);
}

std::optional<provider_slots> lock_provider_slots(soci::session& sql, int64_t tenant_id,
                                                  int64_t voice_provider_id) {
  auto rows = execute(sql, provider_stmt, {tenant_id, voice_provider_id});
  if (rows.size() == 0)
    return std::nullopt;
  auto open = execute(sql, open_calls_stmt, {voice_provider_id}).int64(0, 0);
  return provider_slots{std::string{rows.text(0, 0)}, rows.int32(0, 1), open,
                        rows.opt_sealed(0, 2, 3).value_or(domain::secret_box::sealed{})};
}

int64_t insert_call(soci::session& sql, int64_t tenant_id, int64_t campaign_id, int64_t lead_id,
                    const std::string& phone_number, int64_t voice_provider_id, int32_t attempt,
                    const std::string& node_id, const std::optional<std::string>& phone_number_id,
                    domain::timestamp dialed_at) {
  return execute(sql, insert_call_stmt,
                 {tenant_id, campaign_id, lead_id, phone_number, voice_provider_id, attempt,
                  node_id, phone_number_id, dialed_at})
      .int64(0, 0);
}

recent_contacts read_recent_contacts(soci::session& sql, int64_t tenant_id,
                                     const std::vector<std::string>& numbers,
                                     domain::timestamp since, int32_t per_number) {
  recent_contacts out;
  if (numbers.empty() || per_number <= 0)
    return out;
  auto rows = execute(sql, recent_contacts_stmt, {tenant_id, numbers, since, per_number});
  for (int i = 0; i < rows.size(); ++i)
    out[std::string{rows.text(i, 0)}].push_back(rows.timestamp(i, 1));
  return out;
}

recent_contacts lock_recent_contacts(soci::session& sql, int64_t tenant_id,
                                     std::vector<std::string> numbers, domain::timestamp since,
                                     int32_t per_number) {
  if (numbers.empty() || per_number <= 0)
    return {};
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  execute(sql, lock_contacts_stmt, {tenant_id, numbers});
  return read_recent_contacts(sql, tenant_id, numbers, since, per_number);
}

std::optional<open_call> find_open_call(soci::session& sql, int64_t tenant_id, int64_t call_id) {
  auto rows = execute(sql, open_call_stmt, {tenant_id, call_id});
  if (rows.size() == 0)
    return std::nullopt;
  return open_call{rows.int64(0, 0),
                   rows.int64(0, 1),
                   rows.int64(0, 2),
                   std::string{rows.text(0, 3)},
                   rows.int32(0, 4),
                   std::string{rows.text(0, 5)},
                   std::string{rows.text(0, 6)},
                   rows.opt_text(0, 7)};
}

void mark_call_ringing(soci::session& sql, int64_t call_id, const std::string& provider_call_id) {
  execute(
      sql, ringing_stmt,
      {call_id, provider_call_id.empty() ? pg_param{std::nullopt} : pg_param{provider_call_id}});
}

void set_provider_call_id(soci::session& sql, int64_t call_id,
                          const std::string& provider_call_id) {
  execute(sql, provider_call_stmt, {call_id, provider_call_id});
}

std::optional<call_route> route_call(soci::session& sql, int64_t voice_provider_id,
                                     std::optional<int64_t> call_id,
                                     const std::string& provider_call_id) {
  auto rows = execute(sql, route_stmt, {voice_provider_id, call_id, provider_call_id});
  if (rows.size() == 0)
    return std::nullopt;
  return call_route{rows.int64(0, 0), rows.int64(0, 1), rows.int64(0, 2)};
}

void end_call(soci::session& sql, int64_t call_id, const std::string& status,
              const std::optional<std::string>& outcome, int32_t duration_seconds,
              const std::optional<std::string>& error, const domain::call_result& r) {
  std::optional<std::string> verdict;
  if (r.success_evaluation)
    verdict = std::string{domain::to_string(domain::verdict_of(*r.success_evaluation))};
  execute(sql, end_call_stmt,
          {call_id, status, outcome, duration_seconds, error, r.summary, r.transcript,
           r.recording_url, r.success_evaluation, r.structured_data, r.ended_reason, r.cost,
           verdict});
}

void abandon_call(soci::session& sql, int64_t call_id, const std::string& error,
                  domain::placement_refusal refusal) {
  execute(sql, abandon_call_stmt, {call_id, error, std::string{domain::to_string(refusal)}});
}

std::optional<callback_provider> find_callback_provider(soci::session& sql,
                                                        int64_t voice_provider_id) {
  auto rows = execute(sql, callback_provider_stmt, {voice_provider_id});
  if (rows.size() == 0)
    return std::nullopt;
  return callback_provider{rows.int64(0, 0), std::string{rows.text(0, 1)},
                           rows.opt_sealed(0, 2, 3).value_or(domain::secret_box::sealed{})};
}

bool callback_seen(soci::session& sql, int64_t voice_provider_id, const std::string& digest) {
  return execute(sql, callback_seen_stmt,
                 {voice_provider_id, digest, domain::signature_replay_window_ms})
             .size() > 0;
}

void mark_callback_seen(soci::session& sql, int64_t voice_provider_id, const std::string& digest) {
  execute(sql, mark_seen_stmt, {voice_provider_id, digest, domain::signature_replay_window_ms});
}

void amend_call_result(soci::session& sql, int64_t tenant_id, int64_t call_id,
                       const domain::call_result& r) {
  std::optional<std::string> verdict;
  if (r.success_evaluation)
    verdict = std::string{domain::to_string(domain::verdict_of(*r.success_evaluation))};
  execute(sql, amend_result_stmt,
          {tenant_id, call_id, r.summary, r.success_evaluation, r.structured_data, verdict});
}

std::vector<call_ending> recent_call_endings(soci::session& sql, int64_t tenant_id,
                                             int64_t campaign_id, int64_t after_call_id,
                                             int32_t limit) {
  auto rows = execute(sql, endings_stmt, {tenant_id, campaign_id, after_call_id, limit});
  std::vector<call_ending> out;
  for (int i = 0; i < rows.size(); ++i)
    out.push_back({std::string{rows.text(i, 0)}, rows.opt_text(i, 1), rows.int64(i, 2)});
  return out;
}

void set_next_dial_at(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                      std::optional<domain::timestamp> at) {
  execute(sql, next_dial_stmt, {tenant_id, campaign_id, at});
}

std::vector<campaign_ref> claim_due_campaigns(soci::session& sql, domain::timestamp now,
                                              int32_t lease_seconds, int32_t limit,
                                              bool skip_locked, const std::string& node) {
  auto rows = execute(sql, skip_locked ? claim_stmt : claim_waiting_stmt,
                      {now, lease_seconds, limit, node});
  std::vector<campaign_ref> out;
  for (int i = 0; i < rows.size(); ++i)
    out.push_back({rows.int64(i, 0), rows.int64(i, 1)});
  return out;
}

std::vector<campaign_ref> campaigns_past_end(soci::session& sql, domain::timestamp now,
                                             int32_t limit) {
  auto rows = execute(sql, past_end_stmt, {now, limit});
  std::vector<campaign_ref> out;
  for (int i = 0; i < rows.size(); ++i)
    out.push_back({rows.int64(i, 0), rows.int64(i, 1)});
  return out;
}

std::vector<call_ref> lost_calls(soci::session& sql, int32_t max_age_seconds, int32_t limit) {
  auto rows = execute(sql, lost_stmt, {max_age_seconds, limit});
  std::vector<call_ref> out;
  for (int i = 0; i < rows.size(); ++i)
    out.push_back({rows.int64(i, 0), rows.int64(i, 1), rows.int64(i, 2)});
  return out;
}

std::vector<usage_due> calls_without_usage(soci::session& sql, int32_t limit) {
  auto rows = execute(sql, usage_due_stmt, {limit});
  std::vector<usage_due> out;
  for (int i = 0; i < rows.size(); ++i) {
    usage_due u{rows.int64(i, 0), rows.int64(i, 2), std::nullopt};
    auto gid = domain::encode_global_id(domain::entity::campaign, rows.int64(i, 1));
    auto sub = execute(sql, subscription_stmt, {u.tenant_id, gid});
    if (sub.size() > 0)
      u.subscription_id = sub.int64(0, 0);
    out.push_back(u);
  }
  return out;
}

std::optional<int32_t> take_call_usage(soci::session& sql, int64_t tenant_id, int64_t call_id) {
  auto rows = execute(sql, take_usage_stmt, {tenant_id, call_id});
  if (rows.size() == 0)
    return std::nullopt;
  return rows.int32(0, 0);
}

bool add_do_not_call(soci::session& sql, int64_t tenant_id, const std::string& phone_number) {
  return execute(sql, dnc_add_stmt, {tenant_id, phone_number}).size() > 0;
}

bool remove_do_not_call(soci::session& sql, int64_t tenant_id, const std::string& phone_number) {
  return execute(sql, dnc_remove_stmt, {tenant_id, phone_number}).size() > 0;
}

bool is_do_not_call(soci::session& sql, int64_t tenant_id, const std::string& phone_number) {
  return execute(sql, dnc_find_stmt, {tenant_id, phone_number}).size() > 0;
}

int64_t release_dial_claims(soci::session& sql, const std::string& node) {
  return execute(sql, release_dial_stmt, {node}).size();
}

} // namespace vcs::storage
