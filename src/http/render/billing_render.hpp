#pragma once

// JSON of the billing records (payment request, subscription, usage record),
// shared by the public billing routes and the operator plane.

#include "domain/billing_records.hpp"
#include "http/inputs/json.hpp"

namespace vcs::http {

void render_payment(json_out& out, const domain::payment_request& p);
void render_subscription(json_out& out, const domain::subscription_record& s);
void render_usage(json_out& out, const domain::usage_record& u);

} // namespace vcs::http
