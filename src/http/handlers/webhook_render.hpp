#pragma once

// The JSON of webhook deliveries and endpoints, and the rotation body, as
// the tenant's and the operator's routes share them.

#include "actors/actors.hpp"
#include "domain/error.hpp"
#include "http/inputs/json.hpp"
#include "http/work/handler.hpp"
#include "storage/webhook_repository.hpp"

#include <cstdint>

namespace vcs::http::handlers {

// One delivery: its event, URL, status, attempts, the last answer, the next
// attempt (while pending) and the payload sent.
void render_delivery(json_out& out, const storage::webhook_delivery& d);

// One endpoint: its URL, whether it is enabled, and its failure record.
void render_endpoint(json_out& out, const storage::webhook_endpoint& e);

// A rotation of the tenant's secret: the new secret (shown once in the
// answer) and the message that stores it sealed, with the grace period of
// the optional body {grace_period_seconds} (how long the current secret
// keeps signing beside the new one: 0 to 7 days, one day when absent); or
// the 400 for a bad body.
struct secret_request {
  std::string secret;
  actors::webhook_secret_set message;
};
domain::result<secret_request> rotation_request(const exchange_ptr& ex, int64_t tenant_id);

// 201 with the new secret, shown once, and the old one's expiry.
void respond_rotation(const exchange_ptr& ex, const std::string& secret,
                      const storage::secret_rotation& rotation);

} // namespace vcs::http::handlers
