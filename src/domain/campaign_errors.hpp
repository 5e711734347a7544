#pragma once

#include "domain/error.hpp"

#include <string>
#include <string_view>

namespace vcs::domain {

// Errors of the campaign endpoints, worded as the spec words them.

// 404 `Campaign not found`.
error campaign_not_found();

// 404 `Tenant voice provider not found`, with an `errors` item naming the id
// as it was sent.
error voice_provider_not_found(std::string_view id_as_sent);

// 404 `Phone number pool not found`, with an `errors` item naming the
// campaign's phone_number_pool_id as it was sent.
error campaign_pool_not_found(std::string_view id_as_sent);

// Plan-limit error: a message prompting to upgrade, `errors` item
// `Campaign limit reached`.
error campaign_limit_reached(int32_t limit);

// 400: the field (type, provider_a_calling_entity, start_date, end_date)
// cannot be changed after creation; `errors` item "<field> is immutable".
error immutable_field(std::string_view field);

// 400 listing the allowed values, with them in `valid_values` (the status
// route names them `valid_statuses`).
error invalid_campaign_status();

// 409 `Unable to update the campaign status`, `error`: why (the status
// route adds `success: false`).
error campaign_status_rejected(std::string reason);

} // namespace vcs::domain
