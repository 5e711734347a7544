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

// insert_leads for the rows of an import job's stored chunk, read where
// they are stored (storage::insert_import_job); at the positions reserved
// for them when the job was stored, if any.
insert_counts import_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                           int64_t job_id, int32_t first_index, int32_t row_count,
                           std::optional<int64_t> first_position = std::nullopt);

// The parts of insert_leads for a bulk add whose first chunks are inserted
// on other connections next to the job's transaction (import_job_repository).

// Positions in blocks of their own for two runs of rows, the first from the
// next block boundary on and the second from the boundary after it; the
// campaign's next position moves to the boundary after that, so no other
// write's leads share a lead_blocks row with either run. The caller holds
// the campaign's row lock.
struct split_positions {
  int64_t first = 0;
  int64_t second = 0;
};
split_positions reserve_own_blocks(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                   int64_t first_count, int64_t second_count);

// insert_leads at positions reserved before, from `first_position` on,
// without counting them (count_inserted_leads); answers how many went in.
int64_t insert_leads_at(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                        int64_t first_position, std::span<const domain::lead_input> leads);

// Adds `inserted` to the campaign's lead count and bumps its lead version,
// from a transaction that did not begin with the campaign's row lock.
void count_inserted_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                          int64_t inserted);

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

// The campaign's lead with this number as a page of one (or none, total
// 0); nullopt when the tenant has no such campaign.
std::optional<lead_page> find_lead_by_phone(soci::session& sql, int64_t tenant_id,
                                            int64_t campaign_id, const std::string& phone_number);

// The next `limit` leads of a campaign after `after_position` (-1: from the
// first), in the order they were added (an export's batch), and the last
// one's position.
struct lead_batch {
  std::vector<domain::lead> leads;
  int64_t last_position = -1;
};
lead_batch export_leads(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                        int64_t after_position, int32_t limit);

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
