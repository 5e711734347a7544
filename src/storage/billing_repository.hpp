#pragma once

#include "domain/billing_records.hpp"
#include "storage/page.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

struct payment_filter {
  std::optional<int64_t> client_id;
  std::optional<std::string> status;
  std::optional<std::string> type;
};

// Newest first (created_at, then id), for every billing list.
page_of<domain::payment_request> list_payment_requests(soci::session& sql, int64_t tenant_id,
                                                       const payment_filter& filter,
                                                       const page_request& page);
std::optional<domain::payment_request> find_payment_request(soci::session& sql, int64_t tenant_id,
                                                            int64_t id);
domain::payment_request insert_payment_request(soci::session& sql, int64_t tenant_id,
                                               const domain::payment_request& p);

struct subscription_filter {
  std::optional<int64_t> client_id;
  std::optional<std::string> status;
};

page_of<domain::subscription_record> list_subscriptions(soci::session& sql, int64_t tenant_id,
                                                        const subscription_filter& filter,
                                                        const page_request& page);
std::optional<domain::subscription_record> find_subscription(soci::session& sql, int64_t tenant_id,
                                                             int64_t id);
// The tenant's subscription of the client (any status), for payment requests.
bool subscription_of_client(soci::session& sql, int64_t tenant_id, int64_t client_id,
                            int64_t subscription_id);

page_of<domain::usage_record> list_usage(soci::session& sql, int64_t tenant_id,
                                         std::optional<int64_t> client_id,
                                         const page_request& page);

// Whether the client has a PENDING, FAILED or OVERDUE payment request.
bool has_unpaid_payment_requests(soci::session& sql, int64_t tenant_id, int64_t client_id);

// The tenant owning a client (operator plane: paths name no tenant).
std::optional<int64_t> tenant_of_client(soci::session& sql, int64_t client_id);

} // namespace vcs::storage
