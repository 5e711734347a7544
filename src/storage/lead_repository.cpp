#include "storage/lead_repository.hpp"

#include "domain/bulk_import.hpp"
#include "domain/call_state.hpp"
#include "domain/lead.hpp"

#include "storage/database.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/lead_columns.hpp"
#include "storage/prepared.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace vcs::storage {

namespace {

constexpr prepared_statement total_stmt{
    "vcs_lead_total", "SELECT lead_count FROM campaigns WHERE tenant_id = $1 AND id = $2"};

constexpr prepared_statement reserve_stmt{
    "vcs_reserve_lead_positions",
    "UPDATE campaigns SET next_lead_position = next_lead_position + $3 "
    "WHERE tenant_id = $1 AND id = $2 RETURNING next_lead_position - $3"};

// Earlier rows win over later duplicates: the insert runs in row order.
// The rows are the column arrays $1-$8 (lead_columns), or when they are
// null those of the import job $13's stored chunk that starts at row $14
// (read in place, never sent back and forth). Rows of job $13 that were not
// inserted are its rejections, named by their row index ($8): the arrays
// are read again only when fewer than all $16 went in, so that `input`
// stays inlined (read once) and a chunk without a duplicate costs a count.
// `conflict` is the insert's ON CONFLICT clause, or empty.
#define INSERT_LEADS(conflict)                                                                     \
  "WITH stored AS (SELECT * FROM lead_import_chunks "                                              \
  "  WHERE $1::text[] IS NULL AND job_id = $13 AND first_index = $14), "                           \
  "input AS ( "                                                                                    \
  "  SELECT i.ord - 1 AS ord, i.phone_number, i.first_name, i.last_name, i.email, "                \
  "    i.custom_fields, i.invalid, i.invalid_reason "                                              \
  "  FROM unnest(coalesce($1::text[], (SELECT phone_numbers FROM stored)), "                       \
  "    coalesce($2::text[], (SELECT first_names FROM stored)), "                                   \
  "    coalesce($3::text[], (SELECT last_names FROM stored)), "                                    \
  "    coalesce($4::text[], (SELECT emails FROM stored)), "                                        \
  "    coalesce($5::text[], (SELECT custom_fields FROM stored)), "                                 \
  "    coalesce($6::boolean[], (SELECT invalid FROM stored)), "                                    \
  "    coalesce($7::text[], (SELECT invalid_reasons FROM stored))) "                               \
  "  WITH ORDINALITY AS i(phone_number, first_name, last_name, email, custom_fields, "             \
  "    invalid, invalid_reason, ord)), "                                                           \
  "ins AS ( "                                                                                      \
  "  INSERT INTO leads (tenant_id, campaign_id, position, phone_number, first_name, "              \
  "    last_name, email, custom_fields, invalid, invalid_reason) "                                 \
  "  SELECT $9, $10, $11 + ord, phone_number, first_name, last_name, email, "                      \
  "    custom_fields::jsonb, invalid, invalid_reason "                                             \
  "  FROM input ORDER BY ord "                                                                     \
  " " conflict " "                                                                                 \
  "  RETURNING position), "                                                                        \
  "blocks AS ( "                                                                                   \
  "  INSERT INTO lead_blocks (campaign_id, block, live_count) "                                    \
  "  SELECT $10, position / $12, count(*) FROM ins GROUP BY 2 "                                    \
  "  ON CONFLICT (campaign_id, block) "                                                            \
  "    DO UPDATE SET live_count = lead_blocks.live_count + excluded.live_count), "                 \
  "rejected AS ( "                                                                                 \
  "  INSERT INTO lead_import_rejections (job_id, row_index, phone_number, reason, message) "       \
  "  SELECT $13, r.row_index, r.phone_number, 'already_in_campaign', $15 "                         \
  "  FROM unnest(coalesce($8::integer[], (SELECT row_indexes FROM stored)), "                      \
  "    coalesce($1::text[], (SELECT phone_numbers FROM stored))) "                                 \
  "  WITH ORDINALITY AS r(row_index, phone_number, ord) "                                          \
  "  WHERE $13::bigint IS NOT NULL AND (SELECT count(*) FROM ins) < $16 "                          \
  "    AND r.row_index IS NOT NULL "                                                               \
  "    AND NOT EXISTS (SELECT 1 FROM ins WHERE ins.position = $11 + r.ord - 1)) "                  \
  "SELECT count(*) FROM ins"
constexpr prepared_statement insert_stmt{
    "vcs_insert_leads", INSERT_LEADS("ON CONFLICT (campaign_id, phone_number) DO NOTHING")};
// The same without ON CONFLICT: a fifth cheaper for new numbers (no
// speculative insertion and its confirmation per row), and refused as a
// whole by a number already in the campaign.
constexpr prepared_statement insert_new_stmt{"vcs_insert_new_leads", INSERT_LEADS("")};
#undef INSERT_LEADS
constexpr prepared_statement new_leads_savepoint_stmt{"vcs_new_leads_savepoint",
                                                      "SAVEPOINT vcs_new_leads"};
constexpr prepared_statement new_leads_rollback_stmt{"vcs_new_leads_rollback",
                                                     "ROLLBACK TO SAVEPOINT vcs_new_leads"};

constexpr prepared_statement count_stmt{
    "vcs_add_to_lead_count",
    "UPDATE campaigns SET lead_count = lead_count + $3 WHERE tenant_id = $1 AND id = $2"};

// The same, from a transaction that did not begin with the campaign's row
// lock (which bumps the version lead page caches check): it bumps it too.
constexpr prepared_statement count_version_stmt{
    "vcs_add_to_lead_count_and_version",
    "UPDATE campaigns SET lead_count = lead_count + $3, leads_version = leads_version + 1 "
    "WHERE tenant_id = $1 AND id = $2"};

// Blocks of their own ($5 the block size) for two runs of $3 and $4 rows:
// the first from the next block boundary on, the second from the boundary
// after it, and the campaign's next position at the boundary after that.
// Answers where each run starts.
constexpr prepared_statement reserve_blocks_stmt{"vcs_reserve_lead_blocks", R"sql(
UPDATE campaigns
SET next_lead_position = (next_lead_position + $5::bigint - 1) / $5 * $5
                         + ($3::bigint + $5 - 1) / $5 * $5 + ($4::bigint + $5 - 1) / $5 * $5
WHERE tenant_id = $1 AND id = $2
RETURNING next_lead_position - ($4::bigint + $5 - 1) / $5 * $5 - ($3::bigint + $5 - 1) / $5 * $5,
          next_lead_position - ($4::bigint + $5 - 1) / $5 * $5)sql"};

// Block counts from the newest block down locate the block holding the
// offset; an index-only scan finds the exact start; the page is an index
// range. The block bound is a scalar subquery so it becomes an index
// condition (as a join it was a filter over every newer lead: 150 ms at
// offset 500,000 instead of 0.4 ms). No casts in the select lists: the few
// skipped rows cost nothing extra. The tenant is checked once, on the
// campaign's row (the composite foreign key makes every lead of the
// campaign the campaign's tenant's), not as a filter on each lead: the
// planner took that filter for independent of the campaign and, in a
// generic plan, expected one lead, so it sorted the whole campaign for a
// page (54 ms for 100,000 leads before the table was first analysed,
// against 0.17 ms as an index range).
// The columns of a listed lead, read in binary (list_leads). Both list
// statements take the campaign ($1), the tenant ($2) and the page size ($3)
// (the search by number, the number as $3).
#define LEAD_COLUMNS                                                                               \
  "id, phone_number, first_name, last_name, email, source, custom_fields, call_status, "           \
  "call_error_reason, answered, answer_type, attempts_made, do_not_call, invalid, "                \
  "invalid_reason, priority, next_attempt_after, answered_at, created_at, updated_at, "            \
  "(SELECT lead_count FROM campaigns WHERE tenant_id = $2 AND id = $1)"

constexpr prepared_statement list_stmt{"vcs_list_leads", R"sql(
WITH blk AS (
  SELECT block, live_count, sum(live_count) OVER (ORDER BY block DESC) AS cum
  FROM lead_blocks WHERE campaign_id = $1
), target AS (
  SELECT block, $4 - (cum - live_count) AS skip FROM blk WHERE cum > $4 ORDER BY block DESC LIMIT 1
), start AS (
  SELECT l.position FROM leads l
  WHERE l.campaign_id = $1 AND l.position < (SELECT (block + 1) * $5 FROM target)
  ORDER BY l.position DESC OFFSET (SELECT skip FROM target) LIMIT 1
)
SELECT )sql" LEAD_COLUMNS R"sql(
FROM leads WHERE campaign_id = $1 AND $2 = (SELECT tenant_id FROM campaigns WHERE id = $1)
  AND position <= (SELECT position FROM start)
ORDER BY position DESC LIMIT $3)sql"};

// The first page needs no block arithmetic: the newest leads.
constexpr prepared_statement first_page_stmt{"vcs_list_leads_first", R"sql(
SELECT )sql" LEAD_COLUMNS R"sql(
FROM leads WHERE campaign_id = $1 AND $2 = (SELECT tenant_id FROM campaigns WHERE id = $1)
ORDER BY position DESC LIMIT $3)sql"};
// One lead by its number, through the (campaign_id, phone_number) key.
constexpr prepared_statement by_phone_stmt{"vcs_lead_by_phone", R"sql(
SELECT )sql" LEAD_COLUMNS R"sql(
FROM leads WHERE campaign_id = $1 AND $2 = (SELECT tenant_id FROM campaigns WHERE id = $1)
AND phone_number = $3)sql"};
// An export walks (campaign_id, position) in order, a batch after the last
// position; the position follows the columns above.
constexpr prepared_statement export_stmt{"vcs_export_leads", R"sql(
SELECT )sql" LEAD_COLUMNS R"sql(, position
FROM leads WHERE campaign_id = $1 AND $2 = (SELECT tenant_id FROM campaigns WHERE id = $1)
  AND position > $3 ORDER BY position LIMIT $4)sql"};
#undef LEAD_COLUMNS

// The columns of LEAD_COLUMNS, in order; `total` is the campaign's lead count.
namespace lead_col {
enum : int {
  id,
  phone_number,
  first_name,
  last_name,
  email,
  source,
  custom_fields,
  call_status,
  call_error_reason,
  answered,
  answer_type,
  attempts_made,
  do_not_call,
  invalid,
  invalid_reason,
  priority,
  next_attempt_after,
  answered_at,
  created_at,
  updated_at,
  total,
  position, // exports only
};
} // namespace lead_col

// Update items in one statement, one outcome row per item in order: whether
// it found its lead. Items arrive as parallel text arrays and merge into the
// stored row (custom_fields keys into the stored object), so concurrent
// writers on any node lose nothing. Each item finds its lead by the unique
// (campaign, phone) index in a LATERAL lookup that the planner cannot
// flatten (LIMIT): as a plain join, a generic plan made while a fresh import
// had not yet been analysed scanned the whole campaign per statement
// (445 ms for 100 items of 10,000 leads instead of about 1 ms).
constexpr prepared_statement update_many_stmt{"vcs_update_leads", R"sql(
WITH input AS (
  SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
    WITH ORDINALITY AS i(phone, first_name, last_name, email, dnc, custom, ord)
), target AS (
  SELECT i.*, x.id AS lead_id FROM input i
  LEFT JOIN LATERAL (SELECT id FROM leads WHERE tenant_id = $1 AND campaign_id = $2
                     AND phone_number = i.phone LIMIT 1) x ON true
), upd AS (
  UPDATE leads l SET
    first_name = coalesce(t.first_name, l.first_name),
    last_name = coalesce(t.last_name, l.last_name),
    email = coalesce(t.email, l.email),
    do_not_call = coalesce(t.dnc::boolean, l.do_not_call),
    custom_fields = l.custom_fields || coalesce(t.custom::jsonb, '{}'::jsonb),
    updated_at = now()
  FROM target t
  WHERE l.id = t.lead_id AND l.tenant_id = $1
  RETURNING t.ord
)
SELECT u.ord IS NOT NULL FROM target t LEFT JOIN upd u ON u.ord = t.ord ORDER BY t.ord)sql"};

// Removal items in one statement: each names its lead by id, or else by
// phone number; the leads found are deleted (index look-ups, whatever the
// campaign's size) and their blocks' live counts lowered. Answers the
// deleted leads; items map to them in order (remove_leads).
constexpr prepared_statement delete_many_stmt{"vcs_delete_leads", R"sql(
WITH input AS (
  SELECT * FROM unnest($3::bigint[], $4::text[]) AS i(lead_id, phone)
), target AS (
  SELECT l.id FROM input i JOIN leads l
    ON l.tenant_id = $1 AND l.campaign_id = $2 AND l.id = i.lead_id
  UNION
  SELECT l.id FROM input i JOIN leads l
    ON l.tenant_id = $1 AND l.campaign_id = $2 AND l.phone_number = i.phone
  WHERE i.lead_id IS NULL
), gone AS (
  DELETE FROM leads l USING target t WHERE l.id = t.id
  RETURNING l.id, l.phone_number, l.position
), unblocked AS (
  UPDATE lead_blocks b SET live_count = b.live_count - g.n
  FROM (SELECT position / $5 AS block, count(*) AS n FROM gone GROUP BY 1) g
  WHERE b.campaign_id = $2 AND b.block = g.block
)
SELECT id, phone_number FROM gone)sql"};

void add_to_lead_count(soci::session& sql, int64_t tenant_id, int64_t campaign_id, int64_t delta) {
  execute(sql, count_stmt, {tenant_id, campaign_id, delta});
}

} // namespace

std::optional<int64_t> campaign_lead_total(soci::session& sql, int64_t tenant_id,
                                           int64_t campaign_id) {
  auto rows = execute(sql, total_stmt, {tenant_id, campaign_id});
  if (rows.size() == 0)
    return std::nullopt;
  return rows.int64(0, 0);
}

namespace {

int64_t reserve_positions(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                          int64_t row_count) {
  auto reserved = execute(sql, reserve_stmt, {tenant_id, campaign_id, row_count});
  if (reserved.size() == 0)
    throw std::runtime_error("campaign vanished while adding leads");
  return reserved.int64(0, 0);
}

// From this many rows on, a body's numbers are taken for new: the plain
// insert is tried first, in a savepoint, and only when a number is already
// in the campaign do the rows go in with ON CONFLICT. Below it the
// savepoint's round trip costs more than speculative insertion would.
constexpr int64_t plain_insert_min_rows = 100;

constexpr std::string_view unique_violation = "23505";

// Campaigns whose last body met numbers they had: their next bodies go in
// with ON CONFLICT at once, so that a client that keeps sending known
// numbers pays for a failed plain insert once, not for every body. A body
// that meets none sends the campaign back to the plain insert. Per node,
// and only a guess: either statement inserts the same rows.
class known_number_campaigns {
public:
  bool contains(int64_t campaign_id) {
    std::lock_guard lock{mtx_};
    return ids_.contains(campaign_id);
  }
  void note(int64_t campaign_id, bool met_known_numbers) {
    std::lock_guard lock{mtx_};
    if (!met_known_numbers) {
      ids_.erase(campaign_id);
      return;
    }
    if (ids_.size() >= 10'000)
      ids_.clear();
    ids_.insert(campaign_id);
  }

private:
  std::mutex mtx_;
  std::unordered_set<int64_t> ids_;
};

known_number_campaigns& campaigns_with_known_numbers() {
  static known_number_campaigns campaigns;
  return campaigns;
}

// Inserts the rows from `first_position` on; answers how many went in.
// `rows` is null for a stored chunk.
int64_t insert_rows(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                    int64_t first_position, int64_t row_count, std::optional<lead_columns> rows,
                    pg_param job_id, pg_param first_index) {
  const pg_param none{std::nullopt};
  auto column = [&](pg_param lead_columns::*c) { return pg_param::view(rows ? (*rows).*c : none); };
  auto insert = [&](const prepared_statement& st) {
    return execute(sql, st,
                   {column(&lead_columns::phone_number), column(&lead_columns::first_name),
                    column(&lead_columns::last_name), column(&lead_columns::email),
                    column(&lead_columns::custom_fields), column(&lead_columns::invalid),
                    column(&lead_columns::invalid_reason), column(&lead_columns::row_index),
                    tenant_id, campaign_id, first_position, domain::lead_block_size,
                    pg_param::view(job_id), pg_param::view(first_index),
                    domain::already_in_campaign_message, row_count})
        .int64(0, 0);
  };
  if (row_count < plain_insert_min_rows)
    return insert(insert_stmt);
  auto& known = campaigns_with_known_numbers();
  if (!known.contains(campaign_id)) {
    // Outside a transaction the failed statement undoes only itself.
    const bool savepoint = mid_transaction(sql);
    if (savepoint)
      execute(sql, new_leads_savepoint_stmt, {});
    try {
      return insert(insert_new_stmt);
    } catch (const pg_error& e) {
      if (e.sqlstate() != unique_violation)
        throw;
    }
    if (savepoint)
      execute(sql, new_leads_rollback_stmt, {});
  }
  const auto inserted = insert(insert_stmt);
  known.note(campaign_id, inserted < row_count);
  return inserted;
}

// Inserts at `first_position` on, or at positions reserved now, and counts
// what went in.
insert_counts insert_counted(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                             int64_t row_count, std::optional<lead_columns> rows, pg_param job_id,
                             pg_param first_index,
                             std::optional<int64_t> first_position = std::nullopt) {
  const auto at =
      first_position ? *first_position : reserve_positions(sql, tenant_id, campaign_id, row_count);
  const auto inserted = insert_rows(sql, tenant_id, campaign_id, at, row_count, std::move(rows),
                                    std::move(job_id), std::move(first_index));
  if (inserted > 0)
    add_to_lead_count(sql, tenant_id, campaign_id, inserted);
  return {inserted, row_count - inserted};
}

} // namespace

insert_counts insert_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                           std::span<const domain::lead_input> leads,
                           std::span<const int32_t> row_index, std::optional<int64_t> job_id) {
  return insert_counted(sql, tenant_id, campaign_id, static_cast<int64_t>(leads.size()),
                        columns_of(leads, row_index), job_id, std::nullopt);
}

insert_counts import_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                           int64_t job_id, int32_t first_index, int32_t row_count,
                           std::optional<int64_t> first_position) {
  return insert_counted(sql, tenant_id, campaign_id, row_count, std::nullopt, job_id, first_index,
                        first_position);
}

split_positions reserve_own_blocks(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                   int64_t first_count, int64_t second_count) {
  auto rows = execute(sql, reserve_blocks_stmt,
                      {tenant_id, campaign_id, first_count, second_count, domain::lead_block_size});
  if (rows.size() == 0)
    throw std::runtime_error("campaign vanished while adding leads");
  return {rows.int64(0, 0), rows.int64(0, 1)};
}

int64_t insert_leads_at(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                        int64_t first_position, std::span<const domain::lead_input> leads) {
  return insert_rows(sql, tenant_id, campaign_id, first_position,
                     static_cast<int64_t>(leads.size()), columns_of(leads, {}), std::nullopt,
                     std::nullopt);
}

void count_inserted_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                          int64_t inserted) {
  execute(sql, count_version_stmt, {tenant_id, campaign_id, inserted});
}

namespace {

// One lead of a list statement's rows (binary results).
domain::lead lead_of(const pg_rows& rows, int i) {
  domain::lead lead;
  lead.id = rows.bin_int64(i, lead_col::id);
  lead.phone_number = rows.text(i, lead_col::phone_number);
  lead.first_name = rows.opt_text(i, lead_col::first_name);
  lead.last_name = rows.opt_text(i, lead_col::last_name);
  lead.email = rows.opt_text(i, lead_col::email);
  lead.source = rows.text(i, lead_col::source);
  lead.custom_fields_json = rows.bin_jsonb(i, lead_col::custom_fields);
  lead.call_status = rows.text(i, lead_col::call_status);
  lead.call_error_reason = rows.opt_text(i, lead_col::call_error_reason);
  lead.answered = rows.bin_bool(i, lead_col::answered);
  lead.answer_type = rows.text(i, lead_col::answer_type);
  lead.attempts_made = rows.bin_int32(i, lead_col::attempts_made);
  lead.do_not_call = rows.bin_bool(i, lead_col::do_not_call);
  lead.invalid = rows.bin_bool(i, lead_col::invalid);
  lead.invalid_reason = rows.opt_text(i, lead_col::invalid_reason);
  lead.priority = rows.bin_int32(i, lead_col::priority);
  lead.next_attempt_after = rows.bin_opt_timestamp(i, lead_col::next_attempt_after);
  lead.answered_at = rows.bin_opt_timestamp(i, lead_col::answered_at);
  lead.created_at = rows.bin_timestamp(i, lead_col::created_at);
  lead.updated_at = rows.bin_timestamp(i, lead_col::updated_at);
  return lead;
}

// The leads of a list statement's rows, and the campaign's total they
// carry; nullopt when the tenant has no such campaign.
std::optional<lead_page> page_of(soci::session& sql, const pg_rows& rows, int64_t tenant_id,
                                 int64_t campaign_id) {
  lead_page out;
  if (rows.size() == 0) {
    // No row carried the total: an empty page, or no such campaign.
    auto total = campaign_lead_total(sql, tenant_id, campaign_id);
    if (!total)
      return std::nullopt;
    out.total = *total;
    return out;
  }
  out.total = rows.bin_int64(0, lead_col::total);
  auto& page = out.leads;
  page.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    page.push_back(lead_of(rows, i));
  return out;
}

} // namespace

std::optional<lead_page> list_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                    int64_t offset, int32_t limit) {
  auto rows =
      offset == 0
          ? execute(sql, first_page_stmt, {campaign_id, tenant_id, limit}, result_format::binary)
          : execute(sql, list_stmt,
                    {campaign_id, tenant_id, limit, offset, domain::lead_block_size},
                    result_format::binary);
  return page_of(sql, rows, tenant_id, campaign_id);
}

std::optional<lead_page> find_lead_by_phone(soci::session& sql, int64_t tenant_id,
                                            int64_t campaign_id, const std::string& phone_number) {
  auto rows =
      execute(sql, by_phone_stmt, {campaign_id, tenant_id, phone_number}, result_format::binary);
  auto page = page_of(sql, rows, tenant_id, campaign_id);
  // The page's total is the search's: the one lead, or none.
  if (page)
    page->total = static_cast<int64_t>(page->leads.size());
  return page;
}

lead_batch export_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                        int64_t after_position, int32_t limit) {
  auto rows = execute(sql, export_stmt, {campaign_id, tenant_id, after_position, limit},
                      result_format::binary);
  lead_batch out;
  out.leads.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i) {
    out.leads.push_back(lead_of(rows, i));
    out.last_position = rows.bin_int64(i, lead_col::position);
  }
  return out;
}

namespace {

// mark_as_unanswered is the call state machine's transition
// (domain::mark_unanswered): the marked items' leads are read under their
// row locks, the rule decides and makes each new state, and the states are
// written back in one statement. An item whose lead is not answered
// changes nothing, not even its other fields. Answers the round's items
// that go on to the merge.
std::vector<std::size_t> mark_unanswered(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                         const std::vector<domain::lead_update>& items,
                                         const std::vector<std::size_t>& round,
                                         std::vector<domain::lead_outcome>& out) {
  std::vector<std::string> marked;
  for (const auto k : round)
    if (items[k].mark_as_unanswered)
      marked.push_back(items[k].phone_number);
  if (marked.empty())
    return round;
  std::unordered_map<std::string, locked_call_state> leads;
  for (auto& lead : lock_call_states(sql, tenant_id, campaign_id, marked))
    leads.emplace(lead.phone_number, std::move(lead));
  std::vector<std::size_t> merged;
  std::vector<lead_state_write> resets;
  for (const auto k : round) {
    if (items[k].mark_as_unanswered) {
      auto it = leads.find(items[k].phone_number);
      if (it == leads.end())
        continue; // not_found
      if (!domain::is_answered(it->second.state)) {
        out[k] = domain::lead_outcome::not_answered;
        continue;
      }
      resets.push_back({it->second.lead_id, domain::mark_unanswered(it->second.state)});
    }
    merged.push_back(k);
  }
  if (!resets.empty())
    store_call_states(sql, tenant_id, resets);
  return merged;
}

// One round of update items with distinct phone numbers (`round` indexes
// `items`); each item's outcome goes to out[index].
void update_round(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                  const std::vector<domain::lead_update>& items,
                  const std::vector<std::size_t>& round, std::vector<domain::lead_outcome>& out) {
  const auto merged = mark_unanswered(sql, tenant_id, campaign_id, items, round, out);
  if (merged.empty())
    return;
  std::vector<std::optional<std::string>> phone, first, last, email, dnc, custom;
  for (const auto k : merged) {
    const auto& item = items[k];
    phone.emplace_back(item.phone_number);
    first.push_back(item.first_name);
    last.push_back(item.last_name);
    email.push_back(item.email);
    dnc.push_back(item.do_not_call ? std::optional<std::string>{*item.do_not_call ? "t" : "f"}
                                   : std::nullopt);
    custom.push_back(item.custom_fields_json);
  }
  auto rows = execute(sql, update_many_stmt,
                      {tenant_id, campaign_id, phone, first, last, email, dnc, custom});
  for (int i = 0; i < rows.size(); ++i)
    out[merged[static_cast<std::size_t>(i)]] =
        rows.boolean(i, 0) ? domain::lead_outcome::done : domain::lead_outcome::not_found;
}

} // namespace

std::vector<domain::lead_outcome> update_leads(soci::session& sql, int64_t tenant_id,
                                               int64_t campaign_id,
                                               const std::vector<domain::lead_update>& items) {
  // One UPDATE touches a row once, so the n-th item naming a phone number
  // goes to round n: every number's items apply in the order sent, as if
  // run one by one, in as many statements as a number repeats.
  std::vector<std::vector<std::size_t>> rounds;
  std::unordered_map<std::string_view, std::size_t> seen;
  for (std::size_t k = 0; k < items.size(); ++k) {
    const auto n = seen[items[k].phone_number]++;
    if (n == rounds.size())
      rounds.emplace_back();
    rounds[n].push_back(k);
  }
  std::vector<domain::lead_outcome> out(items.size(), domain::lead_outcome::not_found);
  for (const auto& round : rounds)
    update_round(sql, tenant_id, campaign_id, items, round, out);
  return out;
}

std::vector<domain::lead_outcome> remove_leads(soci::session& sql, int64_t tenant_id,
                                               int64_t campaign_id,
                                               const std::vector<domain::lead_removal>& items) {
  std::vector<std::optional<int64_t>> ids;
  std::vector<std::optional<std::string>> phones;
  ids.reserve(items.size());
  phones.reserve(items.size());
  for (const auto& item : items) {
    // A malformed id names no lead; neither does its phone number then.
    ids.push_back(item.lead_id);
    phones.push_back(item.lead_id || item.lead_id_malformed ? std::nullopt : item.phone_number);
  }
  auto rows = execute(sql, delete_many_stmt,
                      {tenant_id, campaign_id, ids, phones, domain::lead_block_size});
  // Each deleted lead answers the first item naming it; a later item naming
  // it again finds it gone, as if the items ran one by one.
  std::unordered_set<int64_t> deleted;
  std::unordered_map<std::string_view, int64_t> by_phone;
  for (int r = 0; r < rows.size(); ++r) {
    deleted.insert(rows.int64(r, 0));
    by_phone.emplace(rows.text(r, 1), rows.int64(r, 0));
  }
  std::vector<domain::lead_outcome> out;
  out.reserve(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) {
    std::optional<int64_t> id = items[k].lead_id;
    if (!id && phones[k])
      if (auto found = by_phone.find(*phones[k]); found != by_phone.end())
        id = found->second;
    out.push_back(id && deleted.erase(*id) ? domain::lead_outcome::done
                                           : domain::lead_outcome::not_found);
  }
  if (rows.size() > 0)
    add_to_lead_count(sql, tenant_id, campaign_id, -rows.size());
  return out;
}

} // namespace vcs::storage
