#pragma once

#include "domain/bulk_import.hpp"
#include "domain/lead_record.hpp"
#include "http/inputs/json.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vcs::http {

// Lead bodies of the spec, type-checked and validated. Problems are
// appended as "field: message" (the `error` list of the lead endpoints).

std::optional<domain::lead_input> read_lead_input(const rapidjson::Value& item,
                                                  std::vector<std::string>& problems);

// Validates every item of the array `items` into the rows its import
// inserts, each with its item's index in the request (which names it if
// the campaign already has its phone number); malformed items and repeats
// of an earlier item's phone number are rejected. Large bodies are split
// into slices validated on up to `threads` threads: the phone check is the
// largest part (0.9 µs a valid number, 3.8 µs an invalid one, of about
// 2.0 µs a lead parsed, validated and encoded), and the caller is a
// CPU-pool thread that would otherwise use one core for a 100,000-lead
// body.
domain::bulk_import read_bulk_leads(const rapidjson::Value& items, unsigned threads);

std::optional<domain::lead_update> read_lead_update(const rapidjson::Value& item,
                                                    std::vector<std::string>& problems);

// Neither phone_number nor campaign_lead_id given is a problem.
std::optional<domain::lead_removal> read_lead_removal(const rapidjson::Value& item,
                                                      std::vector<std::string>& problems);

} // namespace vcs::http
