#pragma once

// The request path of each body shape and query as its handler runs it,
// up to the validated domain command (no database, actors or network), with
// the invariants the command must hold. Shared by the per-shape targets and
// fuzz_http_request, which reaches them through the router.

#include "http/inputs/query.hpp"
#include "http/work/router.hpp"

#include <string>
#include <string_view>

namespace vcs::fuzz {

// POST .../leads, PATCH v1 .../lead/update, DELETE v1 .../lead/remove.
void single_lead_bodies(std::string_view body);
// POST .../leads/bulk, PATCH .../leads/update/bulk, DELETE .../leads/remove/bulk.
void bulk_lead_bodies(std::string_view body);
// POST /api/v2/voice-campaigns (creating) or PATCH .../{campaign_id}.
void campaign_body(std::string_view body, bool creating);
// PATCH .../{campaign_id}/status.
void campaign_status_body(std::string_view body);
// POST /api/v2/clients/create.
void client_create_body(std::string_view body);
// POST /api/v2/client-account-configurations/{id}/resources/assign.
void assignments_body(std::string_view body);
// POST /api/v2/web-widgets.
void widget_body(std::string_view body);
// POST /api/v2/voice-pod.
void voice_provider_body(std::string_view body);
// PATCH /api/v2/external-billing/payment-requests/{id}/update.
void payment_update_body(std::string_view body);

// Query strings.
enum class billing_list { payment_requests, subscriptions, usage };
void billing_query(const http::target& t, billing_list list);
void lead_list_query(const http::target& t);
// GET /api/v2/voice-campaigns/{campaign_id}/calls: its filters, then the page.
void call_list_query(const http::target& t);
void submissions_query(const http::target& t);

// Global ids: decoding any text as every kind, and the round trip.
void global_id_text(std::string_view text);
// POST /api/v2/do-not-call.
void do_not_call_body(std::string_view body);
// provider_a's server messages (POST /webhooks/provider-a/{id}).
void provider_callback_body(std::string_view body);
// JSON quoting of webhook payload text.
void webhook_text(std::string_view text);

// fuzz_http_request: the reader of a matched route ("POST /api/v2/...", the
// router's method and pattern) over the parsed target and body.
void matched_route(const std::string& route, const http::target& t, const http::path_params& params,
                   std::string_view body);

} // namespace vcs::fuzz
