#pragma once

// Message types and atoms shared by the actor interfaces in actors.hpp.

#include "actors/db_task.hpp"
#include "domain/billing.hpp"
#include "domain/billing_records.hpp"
#include "domain/call_state.hpp"
#include "domain/campaign.hpp"
#include "domain/client_create.hpp"
#include "domain/client_form.hpp"
#include "domain/error.hpp"
#include "domain/lead_record.hpp"
#include "domain/secret_box.hpp"
#include "domain/tenant.hpp"
#include "domain/voice_provider.hpp"
#include "domain/web_widget.hpp"
#include "storage/tenant_repository.hpp"

#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/atom.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace vcs::actors {

using create_atom = caf::atom_constant<caf::atom("create")>;
using update_atom = caf::atom_constant<caf::atom("update")>;
using delete_atom = caf::atom_constant<caf::atom("delete")>;
using tenant_atom = caf::atom_constant<caf::atom("tenant")>;
using retire_atom = caf::atom_constant<caf::atom("retire")>;
using idle_atom = caf::atom_constant<caf::atom("idle")>;
using campaign_atom = caf::atom_constant<caf::atom("campaign")>;
using status_atom = caf::atom_constant<caf::atom("status")>;
using import_atom = caf::atom_constant<caf::atom("import")>;
using tick_atom = caf::atom_constant<caf::atom("tick")>;
using subscr_atom = caf::atom_constant<caf::atom("subscr")>;
using sweep_atom = caf::atom_constant<caf::atom("sweep")>;
using usage_atom = caf::atom_constant<caf::atom("usage")>;
using addon_atom = caf::atom_constant<caf::atom("addon")>;
using dial_atom = caf::atom_constant<caf::atom("dial")>;
using call_atom = caf::atom_constant<caf::atom("call")>;
using deliver_atom = caf::atom_constant<caf::atom("deliver")>;
using deadline_atom = caf::atom_constant<caf::atom("deadline")>;
using resume_atom = caf::atom_constant<caf::atom("resume")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

// The rest of a request, handed back to its request worker after a step
// that ran elsewhere (on the CPU pool).
struct worker_task {
  std::function<void()> run;
};

// Which listener a request came in on.
enum class listener_kind : uint8_t { public_api, operator_api };

// A parsed HTTP request, free of Beast types so actors never see them.
struct inbound_request {
  listener_kind listener = listener_kind::public_api;
  std::string method;
  std::string target;
  std::string authorization;
  // The Idempotency-Key header, when sent.
  std::optional<std::string> idempotency_key;
  // The X-Vapi-Secret header of provider_a's call-status callbacks.
  std::optional<std::string> provider_secret;
  std::string body;
  std::string request_id;
  std::chrono::steady_clock::time_point received;
};

struct outbound_response {
  unsigned status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
};

// One request and the way back to its connection: `reply` posts the response
// to the session's executor and may be called from any thread, once.
struct http_call {
  inbound_request request;
  std::function<void(outbound_response)> reply;
};

struct api_key_request {
  std::string name;
};

// A new key with its one-time secret.
struct issued_api_key {
  domain::api_key_info info;
  std::string key;
};

struct api_key_status_change {
  int64_t key_id = 0;
  domain::api_key_status status = domain::api_key_status::active;
};

struct api_key_removal {
  int64_t key_id = 0;
};

struct voice_provider_create {
  domain::voice_provider_kind kind = domain::voice_provider_kind::provider_a;
  domain::secret_box::sealed credentials;
  int32_t concurrency_limit = domain::concurrency_limit_default;
};

// Create and update carry the validated fields; `voice_provider_ref` is
// tenant_voice_provider_id as the client sent it, for the error message.
struct campaign_create {
  domain::campaign_fields fields;
  std::string voice_provider_ref;
};

// Create-only fields (type, provider_a_calling_entity, start_date, end_date)
// may be present; the campaign actor rejects them when they differ from the
// stored values.
struct campaign_update {
  domain::campaign_fields fields;
  std::string voice_provider_ref;
};

// One validated lead as a JSON object ({phone_number, first_name,
// last_name, email, custom_fields, invalid, invalid_reason}).
struct lead_row {
  std::string json;
};

struct lead_updates {
  std::vector<domain::lead_update> items;
};

struct lead_removals {
  std::vector<domain::lead_removal> items;
};

// One outcome per item, in order.
struct lead_outcomes {
  std::vector<domain::lead_outcome> items;
};

// An accepted bulk add: `rows_json` is the array of valid rows to insert.
struct import_request {
  std::string rows_json;
  int32_t accepted = 0;
  int32_t invalid = 0;
};

// A validated widget for the campaign; `config_json` is its resolved config.
struct widget_create {
  domain::web_widget widget;
  std::string config_json;
};

// A validated replacement of a configuration's assigned resources.
struct assignment_replace {
  int64_t config_id = 0;
  domain::assignments set;
  std::vector<int64_t> campaign_ids;
};

// The configuration's full set after a change.
struct assignment_set {
  domain::assignments set;
};

struct form_create {
  std::string title;
};

// A payment request's new status (any of the five) and, optionally, the
// processor's payment reference.
struct payment_change {
  int64_t payment_id = 0;
  std::string status;
  std::optional<std::string> external_payment_id;
};

// Call minutes to record, or add-on minutes to add, in hundredths.
struct minutes_change {
  int64_t hundredths = 0;
};

// The time a billing sweep acts as.
struct sweep_request {
  domain::timestamp now{};
};

// What a billing sweep did.
struct sweep_counts {
  int64_t subscriptions = 0;         // subscriptions looked at
  int64_t overdue = 0;               // requests that became OVERDUE
  int64_t past_due = 0;              // subscriptions that became past_due
  int64_t blocked = 0;               // subscriptions that became blocked
  int64_t renewed = 0;               // billing periods started
  int64_t subscription_requests = 0; // SUBSCRIPTION requests issued
  int64_t overage_requests = 0;      // OVERAGE requests issued
  int64_t campaigns_paused = 0;
  int64_t failed = 0; // subscriptions whose sweep failed (retried next time)

  sweep_counts& operator+=(const sweep_counts& o) noexcept {
    subscriptions += o.subscriptions;
    overdue += o.overdue;
    past_due += o.past_due;
    blocked += o.blocked;
    renewed += o.renewed;
    subscription_requests += o.subscription_requests;
    overage_requests += o.overage_requests;
    campaigns_paused += o.campaigns_paused;
    failed += o.failed;
    return *this;
  }
};

// The time a dial pass acts as (the clock, or an operator's given time).
struct dial_request {
  domain::timestamp now{};
};

// What a dial pass did.
struct dial_counts {
  int64_t campaigns = 0;    // campaigns that ran a dial pass
  int64_t calls_placed = 0; // calls reserved and handed to the provider
  int64_t failed = 0;       // campaign passes that failed (retried later)
};

// What a voice provider reports about one call.
struct call_update {
  // accepted: the provider took the call and named it (provider_call_id).
  enum class kind : uint8_t { accepted, ringing, ended, refused };
  kind what = kind::ended;
  int64_t call_id = 0;
  std::string provider_call_id;
  domain::call_outcome outcome = domain::call_outcome::failed;
  int32_t duration_seconds = 0;
  // Why the provider refused the call, or why it was ended without an
  // outcome from the provider.
  std::string error;
};

// A number for the tenant's do-not-call list (E.164, checked).
struct do_not_call_change {
  std::string phone_number;
};

// A new sealed webhook signing secret for the tenant.
struct webhook_secret_set {
  domain::secret_box::sealed secret;
};

// A delivery of the tenant's outbox to send again.
struct webhook_replay {
  int64_t delivery_id = 0;
};

// The outcome of one webhook delivery attempt.
struct webhook_result {
  int64_t delivery_id = 0;
  int32_t attempts = 0;
  std::optional<int32_t> status_code;
  std::string error; // empty on a 2xx
};

} // namespace vcs::actors

// These types never leave the process.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::worker_task)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::dial_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::dial_counts)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::call_update)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::webhook_result)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::do_not_call_change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::webhook_secret_set)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::webhook_replay)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::http_call)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::api_key_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::issued_api_key)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::api_key_status_change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::api_key_removal)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::error)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::tenant)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::api_key_info)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::storage::tenant_patch)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::voice_provider_create)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::campaign_create)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::campaign_update)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::campaign)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::campaign_status)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::voice_provider_config)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::lead_row)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::lead_updates)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::lead_removals)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::lead_outcomes)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::import_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::widget_create)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::web_widget)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::product)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::client_create)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::created_client)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::assignment_replace)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::assignment_set)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::form_create)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::client_form)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::form_submission)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::payment_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::usage_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::payment_change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::minutes_change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::sweep_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::sweep_counts)
