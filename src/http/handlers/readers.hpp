#pragma once

#include "domain/client_create.hpp"
#include "domain/error.hpp"
#include "domain/global_id.hpp"
#include "domain/member.hpp"
#include "domain/permission.hpp"
#include "domain/tenant.hpp"
#include "domain/voice_provider.hpp"
#include "domain/web_widget.hpp"
#include "http/inputs/query.hpp"
#include "storage/call_repository.hpp"
#include "storage/page.hpp"

#include <rapidjson/document.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// Pure readers of request bodies and queries that used to sit inside the
// handlers: no exchange, database or actor. The handlers call them, and so
// do the fuzz targets (tests/fuzz), which is why they are declared here.
namespace vcs::http::handlers {

// POST /api/v2/clients/create (clients.cpp): every section of the body into
// `req`; the users' passwords in clear, one per user and in order, go to
// `passwords` (the handler hashes them).
void read_client_create(const rapidjson::Value& body, domain::client_create& req,
                        std::vector<std::string>& passwords, domain::field_errors& errors);

// POST /api/v2/api-keys (tenant_api_keys.cpp): {name, permissions?,
// campaign_ids?, expires_at?}; what is left out is `holder`'s own.
std::optional<std::pair<std::string, domain::key_scope>>
read_key_request(const rapidjson::Value& body, const domain::key_scope& holder,
                 domain::field_errors& errors);

// PATCH /api/v2/api-keys/{key_id} and /admin/v1/api-keys/{key_id}
// (tenant_api_keys.cpp): {status: Active | Disabled}.
std::optional<domain::api_key_status> read_key_status(const rapidjson::Value& body,
                                                      domain::field_errors& errors);

// POST /api/v2/members and /admin/v1/tenants/{tenant_id}/members
// (members.cpp): {email, role}.
struct member_invitation {
  std::string email;
  domain::member_role role = domain::member_role::viewer;
};
std::optional<member_invitation> read_member_invitation(const rapidjson::Value& body,
                                                        domain::field_errors& errors);
// PATCH /api/v2/members/{member_id} (members.cpp): {role}.
std::optional<domain::member_role> read_member_role(const rapidjson::Value& body,
                                                    domain::field_errors& errors);

// POST /api/v2/voice-pod (voice_providers.cpp): provider, limit and the
// credentials as a JSON object text (the plaintext that gets sealed).
struct provider_request {
  domain::voice_provider_kind kind{};
  int32_t concurrency_limit = domain::concurrency_limit_default;
  std::string credentials_json;
};
std::optional<provider_request> read_provider_request(const rapidjson::Value& body,
                                                      domain::field_errors& errors);

// POST /api/v2/web-widgets (web_widgets.cpp): the body with its config
// resolved (defaults filled); `campaign_ref` is set whenever `errors` stays
// empty.
struct widget_request {
  std::optional<std::string> campaign_ref;
  std::optional<std::string> voice_assistant_id;
  std::optional<std::string> chat_assistant_id;
  domain::widget_config config;
};
widget_request read_widget_request(const rapidjson::Value& body, domain::field_errors& errors);

// GET /api/v2/voice-campaigns/{campaign_id}/leads/list (leads.cpp).
struct lead_list_query {
  int64_t limit = 0;
  int64_t offset = 0;
  // Only the lead with this E.164 number (`phone_number=`, its "+" sent as
  // %2B).
  std::optional<std::string> phone_number;
  // `include=dial_state`: each lead also says why it is or is not being
  // called, read fresh (such a page is never cached).
  bool dial_state = false;
  // Whether leads remain after this page when the campaign has `total`.
  bool has_next_page(int64_t total) const noexcept;
};
std::optional<lead_list_query> read_lead_list_query(const target& t, domain::field_errors& errors);

// The lists' query parameters: the client filter of the external billing
// lists (billing.cpp), and a choice and the page of every list in the
// contract's style (listing.cpp). Each leaves its output alone when the
// parameter is absent and returns the 400 the handler answers for a bad
// value.
std::optional<domain::error> read_client_filter(const target& t, std::optional<int64_t>& out);
// An entity's id (integer or global id) in the parameter `name`.
std::optional<domain::error> read_id_param(const target& t, const char* name, domain::entity kind,
                                           std::optional<int64_t>& out);
// `true` or `false` in the parameter `name`.
std::optional<domain::error> read_flag(const target& t, const char* name, std::optional<bool>& out);
std::optional<domain::error> read_choice(const target& t, const char* name,
                                         const std::vector<std::string>& values,
                                         std::optional<std::string>& out);
std::optional<domain::error> read_page(const target& t, storage::page_request& page);

// GET /api/v2/voice-campaigns/{campaign_id}/calls (calls.cpp): the filters
// campaign_lead_id, outcome, status, from and to (ISO 8601, from < to).
domain::result<storage::call_filter> read_call_filter(const target& t);

// PATCH /api/v2/external-billing/payment-requests/{id}/update (billing.cpp):
// `status` is set when valid; an unknown one is kept in `bad_status` (with a
// field error) for the spec's billing message.
struct payment_update {
  std::optional<std::string> status;
  std::optional<std::string> bad_status;
  std::optional<std::string> external_payment_id;
};
payment_update read_payment_update(const rapidjson::Value& body, domain::field_errors& errors);

} // namespace vcs::http::handlers
