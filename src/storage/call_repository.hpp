#pragma once

// The calls of a campaign as the tenant and the operator read them (the
// dialer writes them: dialer_repository).

#include "domain/call_result.hpp"
#include "domain/timestamp.hpp"
#include "storage/page.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

struct call_record {
  int64_t id = 0;
  int64_t lead_id = 0;
  std::string phone_number;
  // The provider's number it was placed from (the campaign's, or one of
  // its pool's).
  std::optional<std::string> phone_number_id;
  int32_t attempt = 0;
  std::string status;
  std::optional<std::string> outcome;
  std::optional<std::string> error;
  std::optional<std::string> provider_call_id;
  int32_t duration_seconds = 0;
  bool usage_recorded = false;
  domain::timestamp created_at{};
  std::optional<domain::timestamp> ringing_at;
  std::optional<domain::timestamp> ended_at;
  // What the provider reported at the end; lists leave out the transcript.
  domain::call_result result;
};

// The operator's view: a campaign's calls, newest first.
std::vector<call_record> list_calls(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                    int32_t limit);

// The tenant's filters; each absent one matches every call. The window is
// on the time the call was placed: [from, to).
struct call_filter {
  std::optional<int64_t> lead_id;
  std::optional<std::string> outcome;
  std::optional<std::string> status;
  std::optional<domain::timestamp> from;
  std::optional<domain::timestamp> to;
};

// The tenant's view: one page of a campaign's calls, newest first.
page_of<call_record> list_campaign_calls(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                         const call_filter& filter, const page_request& page);

// The next `limit` calls of a campaign after the call `after_id`, in id
// order (an export's batch), with the list's filters.
std::vector<call_record> export_campaign_calls(soci::session& sql, int64_t tenant_id,
                                               int64_t campaign_id, const call_filter& filter,
                                               int64_t after_id, int32_t limit);

// One call of the tenant's campaign, with its transcript.
std::optional<call_record> find_campaign_call(soci::session& sql, int64_t tenant_id,
                                              int64_t campaign_id, int64_t call_id);

} // namespace vcs::storage
