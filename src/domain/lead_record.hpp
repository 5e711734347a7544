#pragma once

#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vcs::domain {

// A validated lead to add. custom_fields is the JSON object text as sent.
struct lead_input {
  std::string phone_number;
  std::optional<std::string> first_name;
  std::optional<std::string> last_name;
  std::optional<std::string> email;
  std::string custom_fields_json = "{}";
  // Well-formed E.164 that libphonenumber rejects: stored, flagged.
  bool invalid = false;
  std::optional<std::string> invalid_reason;
};

// One item of a lead update (v1 single, v2 bulk); absent fields stay.
struct lead_update {
  std::string phone_number;
  std::optional<std::string> first_name;
  std::optional<std::string> last_name;
  std::optional<std::string> email;
  std::optional<bool> do_not_call;
  // Keys merge into the stored object.
  std::optional<std::string> custom_fields_json;
  bool mark_as_unanswered = false;
};

// One item of a lead removal: the id wins when both are given.
struct lead_removal {
  std::optional<int64_t> lead_id;
  std::optional<std::string> phone_number;
  // The id did not decode: the item names no lead.
  bool lead_id_malformed = false;
};

// not_run: a bulk removal stopped before the item (the database failed
// after earlier items had committed); sending it again is safe.
enum class lead_outcome : uint8_t { done, not_found, not_answered, not_run };

struct lead {
  int64_t id = 0;
  std::string phone_number;
  std::optional<std::string> first_name;
  std::optional<std::string> last_name;
  std::optional<std::string> email;
  std::string source;
  std::string custom_fields_json;
  std::string call_status;
  std::optional<std::string> call_error_reason;
  bool answered = false;
  std::string answer_type;
  int32_t attempts_made = 0;
  bool do_not_call = false;
  bool invalid = false;
  std::optional<std::string> invalid_reason;
  int32_t priority = 0;
  std::optional<timestamp> next_attempt_after;
  std::optional<timestamp> answered_at;
  timestamp created_at{};
  timestamp updated_at{};
};

// A durable bulk import and its progress. `accepted` counts the items of the
// request; `invalid` those skipped at acceptance; the rest are processed in
// chunks into `inserted` or `duplicates`.
struct import_job {
  int64_t id = 0;
  int64_t campaign_id = 0;
  std::string status; // queued, running, done, failed
  int32_t accepted = 0;
  int32_t invalid = 0;
  int32_t inserted = 0;
  int32_t duplicates = 0;
  int32_t pending = 0;
  std::optional<std::string> error;
  timestamp created_at{};
  std::optional<timestamp> finished_at;
};

} // namespace vcs::domain
