#pragma once

#include "domain/timestamp.hpp"

#include <chrono>
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

// Per-status lead counts of one campaign (the client detail's call
// statistics and the campaign read), most frequent first.
struct lead_statistics {
  std::vector<std::pair<std::string, int64_t>> call_statuses;
  int64_t answered = 0;
  // Leads the dialer may still call: IDLE, unanswered, not on the
  // do-not-call list, valid (leads_dialable_idx).
  int64_t dialable = 0;
  // When the first of them may be called: the earliest next-attempt time,
  // the time of the count for a lead without one; nullopt without dialable
  // leads.
  std::optional<domain::timestamp> first_dialable_at;
  domain::timestamp counted_at{};
};

// Aggregating them reads every lead of the campaign, so each node keeps the
// result for up to `lead_statistics_ttl`, and reads it for one campaign at a
// time: the figures may trail the leads by that much, on every node alike
// (docs/decisions.md). Lead counts themselves are exact
// (campaigns.lead_count).
inline constexpr std::chrono::seconds lead_statistics_ttl{2};

std::map<int64_t, lead_statistics> read_lead_statistics(soci::session& sql, int64_t tenant_id,
                                                        const std::vector<int64_t>& campaign_ids);

} // namespace vcs::storage
