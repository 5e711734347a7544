#include "storage/lead_statistics.hpp"

#include "storage/prepared.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>

namespace vcs::storage {

namespace {

// One index range per campaign: with `campaign_id = ANY(...)` the generic
// plan scanned every lead of every campaign. `d` is what the dialer's
// candidates statement asks of a lead (dialer_repository.cpp) but for time:
// leads_dialable_idx's condition and no entry on the tenant's do-not-call
// list. The list is joined (hashed once) rather than probed per lead: a
// NOT EXISTS per lead made the read of 300,000 leads 5x slower (480 ms
// against 100 ms); the join costs about what the read did without it.
constexpr prepared_statement statuses_stmt{
    "vcs_lead_statistics",
    "SELECT c.id, s.call_status, s.leads, s.answered, s.dialable, s.first_dialable "
    "FROM unnest($2::bigint[]) AS c(id) "
    "CROSS JOIN LATERAL (SELECT call_status, count(*) AS leads, "
    "count(*) FILTER (WHERE answered) AS answered, count(*) FILTER (WHERE d) AS dialable, "
    "min(coalesce(next_attempt_after, now())) FILTER (WHERE d) AS first_dialable "
    "FROM (SELECT l.call_status, l.answered, l.next_attempt_after, l.call_status = 'IDLE' "
    "AND NOT l.answered AND NOT l.do_not_call AND NOT l.invalid AND n.phone_number IS NULL "
    "AS d FROM leads l LEFT JOIN do_not_call_numbers n "
    "ON n.tenant_id = $1 AND n.phone_number = l.phone_number "
    "WHERE l.tenant_id = $1 AND l.campaign_id = c.id) l GROUP BY call_status) s"};

using clock = std::chrono::steady_clock;
using key = std::pair<int64_t, int64_t>; // tenant, campaign

// A campaign's figures, and whether a worker is reading them anew: one read
// at a time per campaign, so the requests that find the figures expired
// together do not each read every lead of it.
struct entry {
  clock::time_point read_at; // when the read that made `stats` began
  std::optional<lead_statistics> stats;
  bool reading = false;
};

// Shared by every worker of the node.
struct cache {
  std::mutex mtx;
  std::condition_variable read_done;
  std::map<key, entry> entries;
};

cache& shared() {
  static cache c;
  return c;
}

// Figures this old are read anew by the first request that finds them,
// while the others keep them, so that under steady traffic none waits.
constexpr auto refresh_after = std::chrono::milliseconds{lead_statistics_ttl} * 3 / 4;

bool fresh(const entry& e, clock::time_point now) {
  return e.stats && now - e.read_at <= lead_statistics_ttl;
}

// Bounds the cache: drops what expired once it grows.
void prune(cache& c, clock::time_point now) {
  if (c.entries.size() < 10'000)
    return;
  std::erase_if(c.entries,
                [&](const auto& e) { return !e.second.reading && !fresh(e.second, now); });
}

// The campaigns' figures, in one statement.
std::map<int64_t, lead_statistics> count(soci::session& sql, int64_t tenant_id,
                                         const std::vector<int64_t>& campaign_ids) {
  auto rows = execute(sql, statuses_stmt, {tenant_id, campaign_ids});
  const auto counted_at = domain::now();
  std::map<int64_t, lead_statistics> out;
  for (auto id : campaign_ids)
    out[id].counted_at = counted_at;
  for (int i = 0; i < rows.size(); ++i) {
    auto& s = out[rows.int64(i, 0)];
    s.call_statuses.emplace_back(std::string{rows.text(i, 1)}, rows.int64(i, 2));
    s.answered += rows.int64(i, 3);
    s.dialable += rows.int64(i, 4);
    // Only the IDLE group has dialable leads.
    if (auto first = rows.opt_timestamp(i, 5))
      s.first_dialable_at = first;
  }
  for (auto& [id, s] : out)
    std::sort(s.call_statuses.begin(), s.call_statuses.end(),
              [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

// Reads the campaigns this worker marked `reading` and hands the figures to
// the cache and to whoever waits for them, failed or not.
std::map<int64_t, lead_statistics> read_marked(soci::session& sql, cache& c, int64_t tenant_id,
                                               const std::vector<int64_t>& campaign_ids) {
  const auto started = clock::now();
  std::map<int64_t, lead_statistics> out;
  try {
    out = count(sql, tenant_id, campaign_ids);
  } catch (...) {
    std::lock_guard guard{c.mtx};
    for (auto id : campaign_ids)
      c.entries[{tenant_id, id}].reading = false;
    c.read_done.notify_all();
    throw;
  }
  std::lock_guard guard{c.mtx};
  for (const auto& [id, s] : out)
    c.entries[{tenant_id, id}] = entry{started, s, false};
  c.read_done.notify_all();
  return out;
}

} // namespace

std::map<int64_t, lead_statistics> read_lead_statistics(soci::session& sql, int64_t tenant_id,
                                                        const std::vector<int64_t>& campaign_ids) {
  std::map<int64_t, lead_statistics> out;
  std::vector<int64_t> mine, theirs;
  auto& c = shared();
  {
    const auto now = clock::now();
    std::lock_guard guard{c.mtx};
    prune(c, now);
    for (auto id : campaign_ids) {
      auto& e = c.entries[{tenant_id, id}];
      if (fresh(e, now)) {
        out[id] = *e.stats;
        if (now - e.read_at <= refresh_after || e.reading)
          continue;
      } else if (e.reading) {
        theirs.push_back(id);
        continue;
      }
      e.reading = true;
      mine.push_back(id);
    }
  }
  // This worker's own reads first: it never waits while others wait for it.
  if (!mine.empty()) {
    // Read ahead of expiry only: a failure leaves the request the figures it
    // has (within their bound), and the next request reads them.
    const bool ahead =
        std::all_of(mine.begin(), mine.end(), [&](int64_t id) { return out.count(id) > 0; });
    try {
      for (auto& [id, s] : read_marked(sql, c, tenant_id, mine))
        out[id] = std::move(s);
    } catch (const std::exception&) {
      if (!ahead)
        throw;
    }
  }
  if (theirs.empty())
    return out;
  std::vector<int64_t> again; // another worker's read failed: read them here
  {
    std::unique_lock lock{c.mtx};
    for (auto id : theirs) {
      const key k{tenant_id, id};
      c.read_done.wait(lock, [&] { return !c.entries[k].reading; });
      auto& e = c.entries[k];
      if (fresh(e, clock::now())) {
        out[id] = *e.stats;
      } else {
        e.reading = true;
        again.push_back(id);
      }
    }
  }
  if (!again.empty())
    for (auto& [id, s] : read_marked(sql, c, tenant_id, again))
      out[id] = std::move(s);
  return out;
}

} // namespace vcs::storage
