#pragma once

#include "domain/timestamp.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// Lead counts of one campaign (the client detail's call statistics and the
// campaign read), exact: the statements that change leads record what they
// changed (migration 0025), and a read adds those records to the counters.
struct lead_statistics {
  // The statuses with leads, most frequent first (equal counts in the
  // domain's order).
  std::vector<std::pair<std::string, int64_t>> call_statuses;
  int64_t answered = 0;
  // Leads the dialer may still call: IDLE, unanswered, not marked
  // do-not-call, valid (leads_dialable_idx); read_dial_statistics also
  // leaves out the numbers on the tenant's do-not-call list,
  // read_lead_counts does not.
  int64_t dialable = 0;
  // When the first of them may be called: the earliest next-attempt time,
  // the time of the count for a lead without one; nullopt without dialable
  // leads. Only read_dial_statistics fills it in.
  std::optional<domain::timestamp> first_dialable_at;
  domain::timestamp counted_at{};
};

// The counters of the tenant's campaigns among `campaign_ids`: a row and
// the changes not folded yet, each.
std::map<int64_t, lead_statistics> read_lead_counts(soci::session& sql, int64_t tenant_id,
                                                    const std::vector<int64_t>& campaign_ids);

// Moves the oldest `limit` change records into the counters (the figures
// read stay the same) and returns how many it moved: 0 while another node
// folds.
int64_t fold_lead_count_changes(soci::session& sql, int32_t limit);

// One campaign's counters with its dialable leads: the counter less the
// dialable leads on the tenant's do-not-call list (bounded by the smaller of
// the list and the campaign), and the first of them to call (one index probe
// per distinct priority among them).
lead_statistics read_dial_statistics(soci::session& sql, int64_t tenant_id, int64_t campaign_id);

} // namespace vcs::storage
