#pragma once

// What a campaign holds, read from its tables, for tests that write through
// the repositories.

#include <soci/soci.h>

#include <cstdint>
#include <string>
#include <vector>

namespace vcs::test {

inline std::vector<std::string> phones_in_position_order(soci::session& sql, int64_t campaign) {
  std::vector<std::string> out;
  soci::rowset<std::string> rows =
      (sql.prepare << "SELECT phone_number FROM leads WHERE campaign_id = :c ORDER BY position",
       soci::use(campaign));
  for (const auto& phone : rows)
    out.push_back(phone);
  return out;
}

// The request indexes of an import job's rejected rows, in order.
inline std::vector<int> rejected_indexes(soci::session& sql, int64_t job) {
  std::vector<int> out;
  soci::rowset<int> rows = (sql.prepare << "SELECT row_index FROM lead_import_rejections "
                                           "WHERE job_id = :j ORDER BY row_index",
                            soci::use(job));
  for (int index : rows)
    out.push_back(index);
  return out;
}

// The campaign's own count of its leads.
inline long long lead_count(soci::session& sql, int64_t campaign) {
  long long n = -1;
  sql << "SELECT lead_count FROM campaigns WHERE id = :c", soci::use(campaign), soci::into(n);
  return n;
}

} // namespace vcs::test
