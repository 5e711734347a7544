#pragma once

#include "domain/lead_record.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// Live leads of a tenant's campaign (campaigns.lead_count, kept in the same
// transactions that add and remove leads); nullopt when the tenant has no
// such campaign.
std::optional<int64_t> campaign_lead_total(soci::session& sql, int64_t tenant_id,
                                           int64_t campaign_id);

struct insert_counts {
  int64_t inserted = 0;
  int64_t duplicates = 0;
};

// Inserts validated leads in one statement; a phone number already in the
// campaign (or earlier among the leads) is a duplicate and is skipped.
// Positions, block counts and the campaign's lead count move in the same
// transaction. For import `job_id`, `row_index` holds each lead's item
// index in the request, under which a skipped lead is recorded as one of
// the job's rejections; it is empty otherwise.
insert_counts insert_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                           std::span<const domain::lead_input> leads,
                           std::span<const int32_t> row_index = {},
                           std::optional<int64_t> job_id = std::nullopt);

// The parts of insert_leads, for a bulk add whose second chunk is inserted
// on another connection at the same time (import_job_repository).

// Positions for two runs of rows: `first_count` from the campaign's next
// position on, then `second_count` in blocks of their own (from the block
// boundary after the first run, the campaign's next position moved to the
// boundary after them), so that no other write's leads share a lead_blocks
// row with the second run. The caller holds the campaign's row lock.
struct split_positions {
  int64_t first = 0;
  int64_t second = 0;
};
split_positions reserve_split_positions(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                        int64_t first_count, int64_t second_count);

// insert_leads at positions reserved before, from `first_position` on,
// without counting them (count_inserted_leads); answers how many went in.
int64_t insert_leads_at(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                        int64_t first_position, std::span<const domain::lead_input> leads,
                        std::span<const int32_t> row_index = {},
                        std::optional<int64_t> job_id = std::nullopt);

// Adds `inserted` to the campaign's lead count; `bump_version` when the
// transaction did not begin with the campaign's row lock, which bumps the
// version lead page caches check.
void count_inserted_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                          int64_t inserted, bool bump_version);

// insert_leads for the rows of an import job's stored chunk, read where
// they are stored (storage::insert_import_job).
insert_counts import_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                           int64_t job_id, int32_t first_index, int32_t row_count);

struct lead_page {
  int64_t total = 0; // the campaign's live leads
  std::vector<domain::lead> leads;
};

// The page of leads at `offset` (most recent first, ties impossible:
// positions are unique), using block counts to find the start, with the
// campaign's total in the same round trip; nullopt when the tenant has no
// such campaign.
std::optional<lead_page> list_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                    int64_t offset, int32_t limit);

// Applies update items as merges in SQL (custom_fields keys merge into the
// stored object), so concurrent writers on any node lose nothing: one
// outcome per item, in order. One statement for distinct phone numbers; a
// number named n times takes n statements (rounds), applied in order.
std::vector<domain::lead_outcome> update_leads(soci::session& sql, int64_t tenant_id,
                                               int64_t campaign_id,
                                               const std::vector<domain::lead_update>& items);

// Deletes leads for good in one statement, each by id when given, else by
// phone number; one outcome per item, in order, as if run one by one.
std::vector<domain::lead_outcome> remove_leads(soci::session& sql, int64_t tenant_id,
                                               int64_t campaign_id,
                                               const std::vector<domain::lead_removal>& items);

} // namespace vcs::storage
