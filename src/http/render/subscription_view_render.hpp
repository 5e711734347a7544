#pragma once

// The client's subscription as the client detail and the portal's billing
// read show it (the contract's subscription section: product, pricing
// details, trial, billing cycle).

#include "domain/client_detail.hpp"
#include "domain/timestamp.hpp"
#include "http/inputs/json.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace vcs::http {

void render_subscription_view(json_out& out, const domain::subscription_view& s);

int64_t unix_seconds(domain::timestamp t);
// A validated decimal text written as a JSON number, exactly.
void decimal_field(json_out& out, std::string_view key, const std::string& decimal);

} // namespace vcs::http
