#pragma once

// A bulk add as validated before it is stored: the rows to insert and the
// items rejected on the way, each with its index in the request.

#include "domain/lead_record.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

// Why an item of a bulk add was not imported. `invalid` and
// `duplicate_in_request` are settled before the job is stored;
// `already_in_campaign` when its row meets the campaign's leads.
enum class rejection_reason : uint8_t { invalid, duplicate_in_request, already_in_campaign };

std::string_view to_string(rejection_reason r);
std::optional<rejection_reason> parse_rejection_reason(std::string_view s);
const std::vector<std::string>& rejection_reason_names();

// A bulk import job's statuses: queued, running, done, failed.
const std::vector<std::string>& import_job_statuses();

struct import_rejection {
  int32_t index = 0;                       // the item's index in the request
  std::optional<std::string> phone_number; // as sent, when it was text
  rejection_reason reason = rejection_reason::invalid;
  std::string message;
};

// The message of a row whose phone number is already a lead of the campaign.
inline constexpr std::string_view already_in_campaign_message =
    "A lead with this phone number already exists in the campaign.";

struct bulk_import {
  std::vector<lead_input> rows;           // the rows to insert, in request order
  std::vector<int32_t> row_index;         // each row's item index in the request
  int32_t accepted = 0;                   // items in the request
  int32_t invalid = 0;                    // items rejected as malformed
  int32_t duplicates = 0;                 // items repeating an earlier item's phone number
  std::vector<import_rejection> rejected; // the invalid and duplicate items, by index
};

} // namespace vcs::domain
