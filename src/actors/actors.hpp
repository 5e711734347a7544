#pragma once

// Every actor interface of the service, in one place.

#include "actors/atoms.hpp"
#include "actors/campaign_messages.hpp"
#include "actors/db_task.hpp"
#include "actors/dialer_messages.hpp"
#include "actors/domain_messages.hpp"
#include "actors/provider_inquiry.hpp"
#include "actors/subscription_messages.hpp"
#include "actors/tenant_messages.hpp"
#include "actors/webhook_messages.hpp"

#include <caf/replies_to.hpp>
#include <caf/stateful_actor.hpp>
#include <caf/typed_actor.hpp>
#include <caf/typed_event_based_actor.hpp>

namespace vcs::actors {

// A detached worker that owns one database session.
using db_worker_actor = caf::typed_actor<
    // Runs blocking work on the worker's session; answers what it returned.
    caf::replies_to<db_task>::with<db_result>>;

// Shares the database workers among tenants (domain::fair_share); the same
// interface as one worker.
using db_dispatcher_actor = caf::typed_actor<
    // Runs blocking work on the next free worker, in fair order across the
    // task's owners; the worker answers what it returned.
    caf::replies_to<db_task>::with<db_result>,
    // Worker (index) finished a job of the owner and is free.
    caf::reacts_to<done_atom, std::size_t, std::uint64_t>,
    // Time to cancel the jobs running past their deadline.
    caf::reacts_to<tick_atom>>;

// Serialises every write to one tenant's own records.
using tenant_actor = caf::typed_actor<
    // Applies an operator's change to the tenant record.
    caf::replies_to<update_atom, domain::tenant_patch>::with<domain::tenant>,
    // Issues a new API key; the reply carries the only copy of the secret.
    caf::replies_to<create_atom, api_key_request>::with<issued_api_key>,
    // Enables or disables one of the tenant's keys.
    caf::replies_to<update_atom, api_key_status_change>::with<domain::api_key_info>,
    // Deletes one of the tenant's keys for good.
    caf::replies_to<delete_atom, api_key_removal>::with<bool>,
    // Registers a voice provider configuration (credentials already sealed).
    caf::replies_to<create_atom, voice_provider_create>::with<domain::voice_provider_config>,
    // Creates a campaign within the plan's campaign limit (row-locked quota).
    caf::replies_to<create_atom, campaign_create>::with<domain::campaign>,
    // Adds a product with its prices to the tenant's billing catalog.
    caf::replies_to<create_atom, domain::product>::with<domain::product>,
    // Creates a client with everything of its create body, all or nothing.
    caf::replies_to<create_atom, domain::client_create>::with<domain::created_client>,
    // Replaces the assigned resources of one of the tenant's configurations.
    caf::replies_to<update_atom, assignment_replace>::with<assignment_set>,
    // Creates a client form (operator plane).
    caf::replies_to<create_atom, form_create>::with<domain::client_form>,
    // Records a submission of one of the tenant's forms by one of its clients.
    caf::replies_to<create_atom, domain::form_submission>::with<domain::form_submission>,
    // Issues a payment request (PENDING) outside any subscription to one of
    // the tenant's clients.
    caf::replies_to<create_atom, domain::payment_request>::with<domain::payment_request>,
    // Changes the status of a payment request outside any subscription.
    caf::replies_to<update_atom, payment_change>::with<domain::payment_request>,
    // Adds a number to the tenant's do-not-call list (false: already there).
    caf::replies_to<create_atom, do_not_call_change>::with<bool>,
    // Removes a number from the list (false: it was not there).
    caf::replies_to<delete_atom, do_not_call_change>::with<bool>,
    // Replaces the tenant's webhook signing secret; the old one signs beside
    // it until the rotation's answer says.
    caf::replies_to<update_atom, webhook_secret_set>::with<storage::secret_rotation>,
    // Queues one of the tenant's webhook deliveries again.
    caf::replies_to<update_atom, webhook_replay>::with<storage::webhook_delivery>,
    // Enables one of the tenant's webhook endpoints again.
    caf::replies_to<update_atom, webhook_endpoint_enable>::with<storage::webhook_endpoint>,
    // Queues a webhook.test event for a campaign's webhook_url.
    caf::replies_to<create_atom, webhook_test>::with<storage::webhook_delivery>,
    // Asks the vendor through a configuration: its credentials, its
    // assistants or its phone numbers (recent lists answered from memory).
    caf::replies_to<inquire_atom, provider_inquiry>::with<inquiry_result>,
    // The vendor's answer to an inquiry under way (from the gateway).
    caf::reacts_to<inquired_atom, uint64_t, inquiry_result>,
    // Timer tick: retires the actor when it has been idle long enough.
    caf::reacts_to<idle_atom>>;

// Serialises every change to one campaign.
using campaign_actor = caf::typed_actor<
    // Applies a partial update; create-only fields must keep their values.
    caf::replies_to<update_atom, campaign_update>::with<domain::campaign>,
    // Moves the campaign to a status, unless a transition rule forbids it.
    caf::replies_to<update_atom, status_atom, domain::campaign_status>::with<domain::campaign>,
    // Adds one lead; a phone number already in the campaign is a conflict.
    caf::replies_to<create_atom, lead_row>::with<bool>,
    // Applies update items (merges in SQL); one outcome per item.
    caf::replies_to<update_atom, lead_updates>::with<lead_outcomes>,
    // Removes leads for good; one outcome per item.
    caf::replies_to<delete_atom, lead_removals>::with<lead_outcomes>,
    // Stores a bulk add durably, answers its job id, then imports it.
    caf::replies_to<import_atom, domain::bulk_import>::with<int64_t>,
    // Imports (or resumes) a stored job chunk by chunk.
    caf::reacts_to<import_atom, int64_t>,
    // Inserts one of a bulk add's first chunks on a connection of its own
    // while the job's transaction is still open.
    caf::reacts_to<import_atom, parallel_chunk_start>,
    // Answers a bulk add held for its parallel chunks, if it still waits.
    caf::reacts_to<import_atom, done_atom, int64_t>,
    // Creates the campaign's web widget; a second one is a conflict.
    caf::replies_to<create_atom, widget_create>::with<domain::web_widget>,
    // Runs one dial pass as of a time; answers the calls it placed.
    caf::replies_to<dial_atom, dial_request>::with<int64_t>,
    // A provider's report on one of the campaign's calls; answers once it
    // committed (true: the call ended), so a callback is acknowledged only
    // then.
    caf::replies_to<call_atom, call_update>::with<bool>,
    // Timer tick: retires the actor when it has been idle long enough.
    caf::reacts_to<idle_atom>>;

// Serialises every change to one subscription: its payment requests, its
// status and the campaign pauses that follow it, its usage and its periods.
using subscription_actor = caf::typed_actor<
    // Issues a payment request (PENDING) linked to the subscription.
    caf::replies_to<create_atom, domain::payment_request>::with<domain::payment_request>,
    // Changes one of its payment requests and applies the subscription rules.
    caf::replies_to<update_atom, payment_change>::with<domain::payment_request>,
    // Records call minutes in the consumption order.
    caf::replies_to<usage_atom, minutes_change>::with<domain::usage_record>,
    // Adds add-on pack minutes.
    caf::replies_to<addon_atom, minutes_change>::with<domain::usage_record>,
    // Records an ended call's minutes, once per call (false: already done).
    caf::replies_to<usage_atom, call_atom, int64_t>::with<bool>,
    // Runs the billing sweep for this subscription as of a time.
    caf::replies_to<sweep_atom, sweep_request>::with<sweep_counts>,
    // Timer tick: retires the actor when it has been idle long enough.
    caf::reacts_to<idle_atom>>;

// Spawns entity actors on demand and forgets them when they retire.
using registry_actor = caf::typed_actor<
    // Returns the tenant's actor, spawning it on first use.
    caf::replies_to<caf::get_atom, tenant_atom, int64_t>::with<tenant_actor>,
    // Returns the campaign's actor (tenant id, campaign id), spawning it on
    // first use. The caller has checked that the tenant owns the campaign.
    caf::replies_to<caf::get_atom, campaign_atom, int64_t, int64_t>::with<campaign_actor>,
    // Returns the subscription's actor (tenant id, subscription id),
    // spawning it on first use. The caller has checked the tenant owns it.
    caf::replies_to<caf::get_atom, subscr_atom, int64_t, int64_t>::with<subscription_actor>,
    // An idle tenant actor asks to retire; the registry forgets it first.
    caf::replies_to<retire_atom, tenant_atom, int64_t>::with<bool>,
    // An idle campaign actor asks to retire (tenant id, campaign id).
    caf::replies_to<retire_atom, campaign_atom, int64_t, int64_t>::with<bool>,
    // An idle subscription actor asks to retire (tenant id, subscription id).
    caf::replies_to<retire_atom, subscr_atom, int64_t, int64_t>::with<bool>>;

// Finds unfinished imports (at start-up, and of dead nodes) and hands them
// to their campaign actors.
using import_sweeper_actor = caf::typed_actor<
    // Timer tick: looks for claimable jobs, then re-arms.
    caf::reacts_to<tick_atom>>;

// Keeps the database's cost flat: folds the lead counters' changes into
// their rows, and deletes rows past their retention, a batch at a time.
using maintenance_actor = caf::typed_actor<
    // Timer tick: folds a batch of counter changes, then re-arms (at once
    // while more are waiting).
    caf::reacts_to<fold_atom>,
    // Timer tick: deletes a batch of each kind past its retention, then
    // re-arms (at once while more are due).
    caf::reacts_to<purge_atom>>;

// Runs the platform billing sweep: periodically, and on demand as of a given
// time; one sweep at a time per node, one node at a time (advisory lock).
using billing_scheduler_actor = caf::typed_actor<
    // Timer tick: sweeps as of the clock, then re-arms.
    caf::reacts_to<tick_atom>,
    // Sweeps as of the given time and answers what it did.
    caf::replies_to<sweep_atom, sweep_request>::with<sweep_counts>>;

// Wakes campaigns whose dial pass is due (each campaign actor runs its own
// dialing), ends campaigns past their end date, ends lost calls and records
// the minutes of ended calls.
using dial_scheduler_actor = caf::typed_actor<
    // Timer tick: one round as of the clock, then re-arms.
    caf::reacts_to<tick_atom>,
    // One round as of the given time, answered when every pass is done.
    caf::replies_to<dial_atom, dial_request>::with<dial_counts>>;

// Delivers the webhook outbox: claims due deliveries, signs and sends them,
// records the outcome (retry with backoff, or dead).
using webhook_dispatcher_actor = caf::typed_actor<
    // Timer tick: claims and sends a batch, then re-arms.
    caf::reacts_to<tick_atom>,
    // The outcome of one delivery attempt.
    caf::reacts_to<deliver_atom, webhook_result>>;

// Probes the database on its own connection and publishes the outcome, so
// health checks answer without a round trip of their own.
using health_probe_actor = caf::typed_actor<
    // Timer tick: one probe, then re-arms.
    caf::reacts_to<tick_atom>>;

} // namespace vcs::actors
