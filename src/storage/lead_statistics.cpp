#include "storage/lead_statistics.hpp"

#include "storage/prepared.hpp"

#include <algorithm>
#include <mutex>

namespace vcs::storage {

namespace {

// One index range per campaign: with `campaign_id = ANY(...)` the generic
// plan scanned every lead of every campaign. `d` is leads_dialable_idx's
// condition.
constexpr prepared_statement statuses_stmt{
    "vcs_lead_statistics",
    "SELECT c.id, s.call_status, s.leads, s.answered, s.dialable, s.first_dialable "
    "FROM unnest($2::bigint[]) AS c(id) "
    "CROSS JOIN LATERAL (SELECT call_status, count(*) AS leads, "
    "count(*) FILTER (WHERE answered) AS answered, count(*) FILTER (WHERE d) AS dialable, "
    "min(coalesce(next_attempt_after, now())) FILTER (WHERE d) AS first_dialable "
    "FROM (SELECT call_status, answered, next_attempt_after, call_status = 'IDLE' "
    "AND NOT answered AND NOT do_not_call AND NOT invalid AS d FROM leads "
    "WHERE tenant_id = $1 AND campaign_id = c.id) l GROUP BY call_status) s"};

using clock = std::chrono::steady_clock;
using key = std::pair<int64_t, int64_t>; // tenant, campaign

struct entry {
  clock::time_point read_at;
  lead_statistics stats;
};

// Shared by every worker of the node.
struct cache {
  std::mutex mtx;
  std::map<key, entry> entries;
};

cache& shared() {
  static cache c;
  return c;
}

// Bounds the cache: drops what expired once it grows.
void prune(cache& c, clock::time_point now) {
  if (c.entries.size() < 10'000)
    return;
  std::erase_if(c.entries,
                [&](const auto& e) { return now - e.second.read_at > lead_statistics_ttl; });
}

} // namespace

std::map<int64_t, lead_statistics> read_lead_statistics(soci::session& sql, int64_t tenant_id,
                                                        const std::vector<int64_t>& campaign_ids) {
  std::map<int64_t, lead_statistics> out;
  std::vector<int64_t> missing;
  auto now = clock::now();
  auto& c = shared();
  {
    std::lock_guard guard{c.mtx};
    for (auto id : campaign_ids) {
      auto it = c.entries.find({tenant_id, id});
      if (it != c.entries.end() && now - it->second.read_at <= lead_statistics_ttl)
        out[id] = it->second.stats;
      else
        missing.push_back(id);
    }
  }
  if (missing.empty())
    return out;
  auto rows = execute(sql, statuses_stmt, {tenant_id, missing});
  const auto counted_at = domain::now();
  std::map<int64_t, lead_statistics> fresh;
  for (auto id : missing)
    fresh[id].counted_at = counted_at;
  for (int i = 0; i < rows.size(); ++i) {
    auto& s = fresh[rows.int64(i, 0)];
    s.call_statuses.emplace_back(std::string{rows.text(i, 1)}, rows.int64(i, 2));
    s.answered += rows.int64(i, 3);
    s.dialable += rows.int64(i, 4);
    // Only the IDLE group has dialable leads.
    if (auto first = rows.opt_timestamp(i, 5))
      s.first_dialable_at = first;
  }
  std::lock_guard guard{c.mtx};
  prune(c, now);
  for (auto& [id, s] : fresh) {
    std::sort(s.call_statuses.begin(), s.call_statuses.end(),
              [](const auto& a, const auto& b) { return a.second > b.second; });
    c.entries[{tenant_id, id}] = entry{now, s};
    out[id] = std::move(s);
  }
  return out;
}

} // namespace vcs::storage
