#pragma once

// What the tenant actor is asked to do, beyond the domain values it takes.

#include "domain/client_create.hpp"
#include "domain/secret_box.hpp"
#include "domain/tenant.hpp"
#include "domain/voice_provider.hpp"
#include "storage/webhook_repository.hpp"

#include <caf/allowed_unsafe_message_type.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vcs::actors {

struct api_key_request {
  std::string name;
  domain::key_scope scope;
};

// A new key with its one-time secret.
struct issued_api_key {
  domain::api_key_info info;
  std::string key;
};

// `holder`: the scope of the key asking, which may change only keys that
// reach no more (nullopt: an operator, who may change any).
struct api_key_status_change {
  int64_t key_id = 0;
  domain::api_key_status status = domain::api_key_status::active;
  std::optional<domain::key_scope> holder;
};

struct api_key_removal {
  int64_t key_id = 0;
  std::optional<domain::key_scope> holder;
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

// A validated replacement of a configuration's assigned resources.
struct assignment_replace {
  int64_t config_id = 0;
  domain::assignments set;
  std::vector<int64_t> campaign_ids;
  // The caller's reach: what the replacement may take away.
  domain::key_scope holder;
};

// The configuration's full set after a change.
struct assignment_set {
  domain::assignments set;
};

struct form_create {
  std::string title;
};

// A number for the tenant's do-not-call list (E.164, checked).
struct do_not_call_change {
  std::string phone_number;
};

// A new sealed webhook signing secret for the tenant; the current one keeps
// signing beside it for `grace_seconds` (0: it stops at once).
struct webhook_secret_set {
  domain::secret_box::sealed secret;
  int32_t grace_seconds = 0;
};

// A delivery of the tenant's outbox to send again.
struct webhook_replay {
  int64_t delivery_id = 0;
  // The caller's campaigns (a key held to some); nullopt: all.
  std::optional<std::vector<int64_t>> campaigns;
};

// One of the tenant's webhook endpoints to enable again.
struct webhook_endpoint_enable {
  int64_t endpoint_id = 0;
};

// A webhook.test event for the URL of one of the tenant's campaigns.
struct webhook_test {
  int64_t campaign_id = 0;
};

} // namespace vcs::actors

// These types never leave the process.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::api_key_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::issued_api_key)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::api_key_status_change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::api_key_removal)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::voice_provider_create)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::campaign_create)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::assignment_replace)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::assignment_set)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::form_create)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::do_not_call_change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::webhook_secret_set)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::webhook_replay)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::webhook_endpoint_enable)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::webhook_test)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::storage::secret_rotation)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::storage::webhook_delivery)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::storage::webhook_endpoint)
