#pragma once

#include "domain/campaign.hpp"
#include "domain/timestamp.hpp"
#include "storage/lead_statistics.hpp"

#include <cstdint>
#include <optional>

namespace soci {
class session;
}

namespace vcs::storage {

// A campaign with its progress: what the campaign read answers and what an
// event stream sends as `campaign.progress`.
struct campaign_progress {
  domain::campaign campaign;
  lead_statistics stats;
  std::optional<domain::timestamp> next_dial_at;
};

// `c`'s lead counts (read_dial_statistics) and the time of its next dial.
campaign_progress read_campaign_progress(soci::session& sql, domain::campaign c);

// The same for one of the tenant's campaigns; nullopt when it has none such.
std::optional<campaign_progress> find_campaign_progress(soci::session& sql, int64_t tenant_id,
                                                        int64_t campaign_id);

} // namespace vcs::storage
