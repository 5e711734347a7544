#include "actors/tenant_actor.hpp"

#include <caf/event_based_actor.hpp>

namespace vcs::actors {

tenant_actor::behavior_type tenant(tenant_state::pointer self, int64_t tenant_id,
                                   entity_config_ptr config, registry_actor registry) {
  self->state.self = self;
  self->state.tenant_id = tenant_id;
  self->state.start(self, std::move(config), std::move(registry), tenant_id);
  return {
      // Applies an operator's change to the tenant record.
      [self](update_atom, domain::tenant_patch& p) { return self->state.update_tenant(p); },
      // Issues a new API key; the reply carries the only copy of the secret.
      [self](create_atom, api_key_request& r) { return self->state.issue_api_key(r); },
      // Enables or disables one of the tenant's keys.
      [self](update_atom, api_key_status_change& c) { return self->state.set_api_key_status(c); },
      // Deletes one of the tenant's keys for good.
      [self](delete_atom, api_key_removal& r) { return self->state.delete_api_key(r); },
      // Registers a voice provider configuration (credentials already sealed).
      [self](create_atom, voice_provider_create& r) { return self->state.add_voice_provider(r); },
      // Creates a campaign within the plan's campaign limit (row-locked quota).
      [self](create_atom, campaign_create& r) { return self->state.create_campaign(r); },
      // Adds a product with its prices to the tenant's billing catalog.
      [self](create_atom, domain::product& p) { return self->state.add_product(p); },
      // Creates a client with everything of its create body, all or nothing.
      [self](create_atom, domain::client_create& r) { return self->state.create_client(r); },
      // Replaces the assigned resources of one of the tenant's configurations.
      [self](update_atom, assignment_replace& r) { return self->state.replace_assignments(r); },
      // Creates a client form (operator plane).
      [self](create_atom, form_create& r) { return self->state.create_form(r); },
      // Records a submission of one of the tenant's forms by one of its clients.
      [self](create_atom, domain::form_submission& s) { return self->state.record_submission(s); },
      // Issues a payment request (PENDING) outside any subscription.
      [self](create_atom, domain::payment_request& r) { return self->state.issue_payment(r); },
      // Changes the status of a payment request outside any subscription.
      [self](update_atom, payment_change& c) { return self->state.change_payment(c); },
      // Adds a number to the tenant's do-not-call list (false: already there).
      [self](create_atom, do_not_call_change& c) { return self->state.add_do_not_call(c); },
      // Removes a number from the list (false: it was not there).
      [self](delete_atom, do_not_call_change& c) { return self->state.remove_do_not_call(c); },
      // Replaces the tenant's webhook signing secret; the old one signs beside
      // it until the rotation's answer says.
      [self](update_atom, webhook_secret_set& s) { return self->state.set_webhook_secret(s); },
      // Queues one of the tenant's webhook deliveries again.
      [self](update_atom, webhook_replay r) { return self->state.replay_webhook(r); },
      // Enables one of the tenant's webhook endpoints again.
      [self](update_atom, webhook_endpoint_enable e) { return self->state.enable_endpoint(e); },
      // Queues a webhook.test event for a campaign's webhook_url.
      [self](create_atom, webhook_test t) { return self->state.queue_test_event(t); },
      // Asks the vendor through a configuration (recent lists from memory).
      [self](inquire_atom, provider_inquiry& q) { return self->state.inquire(q); },
      // The vendor's answer to an inquiry under way.
      [self](inquired_atom, uint64_t token, inquiry_result& r) { self->state.inquired(token, r); },
      // Timer tick: retires the actor when it has been idle long enough.
      [self](idle_atom) { self->state.idle_tick(); },
  };
}

} // namespace vcs::actors
