#pragma once

#include "domain/lead_record.hpp"
#include "http/json.hpp"

#include <optional>
#include <string>
#include <vector>

namespace vcs::http {

// Lead bodies of the spec, type-checked and validated. Problems are
// appended as "field: message" (the `error` list of the lead endpoints).

std::optional<domain::lead_input> read_lead_input(const rapidjson::Value& item,
                                                  std::vector<std::string>& problems);

// Writes a validated lead as the row object the repository inserts.
void write_lead_row(json_writer& w, const domain::lead_input& lead);

std::optional<domain::lead_update> read_lead_update(const rapidjson::Value& item,
                                                    std::vector<std::string>& problems);

// Neither phone_number nor campaign_lead_id given is a problem.
std::optional<domain::lead_removal> read_lead_removal(const rapidjson::Value& item,
                                                      std::vector<std::string>& problems);

} // namespace vcs::http
