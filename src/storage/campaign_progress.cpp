#include "storage/campaign_progress.hpp"

#include "domain/dial_policy.hpp"
#include "storage/campaign_repository.hpp"

namespace vcs::storage {

campaign_progress read_campaign_progress(soci::session& sql, domain::campaign c) {
  auto stats = read_dial_statistics(sql, c.tenant_id, c.id);
  auto next = domain::next_dial_time(domain::policy_of(c, c.lead_local_time), c.status,
                                     c.next_dial_at, stats.first_dialable_at);
  return {std::move(c), std::move(stats), next};
}

std::optional<campaign_progress> find_campaign_progress(soci::session& sql, int64_t tenant_id,
                                                        int64_t campaign_id) {
  auto c = find_campaign(sql, tenant_id, campaign_id);
  if (!c)
    return std::nullopt;
  return read_campaign_progress(sql, std::move(*c));
}

} // namespace vcs::storage
