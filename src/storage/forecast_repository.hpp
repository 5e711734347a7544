#pragma once

// What a campaign's forecast is computed from (domain/forecast.hpp), read
// in one read-only snapshot, without locks and without reading every lead: the counters of
// migration 0032, the leads on the tenant's do-not-call list (bounded by the smaller of the list
// and the campaign), the leads called since the start of the local day or still in their gap
// (leads_attempted_idx: a day's calls), and the campaign's last ended calls.

#include "domain/campaign.hpp"
#include "domain/dial_policy.hpp"
#include "domain/dial_state.hpp"
#include "domain/forecast.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>

namespace soci {
class session;
}

namespace vcs::storage {

struct forecast_inputs {
  domain::dial_policy policy;
  domain::campaign_dial_facts facts;
  int32_t lines = 0; // of its provider configuration; 0 without one
  int64_t free_lines = 0;
  domain::lead_tally leads;
  domain::call_sample calls;
};

// Of a campaign the caller read (its tenant's, as path_campaign reads it).
forecast_inputs read_forecast_inputs(soci::session& sql, const domain::campaign& c,
                                     domain::timestamp now);

} // namespace vcs::storage
