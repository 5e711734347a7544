#pragma once

#include "actors/entity_state.hpp"

namespace vcs::actors {

// One tenant's writes; each command runs in the next group commit
// (tenant_work.cpp), in the order of tenant_actor's interface.
struct tenant_state : entity_state {
  static inline const char* name = "tenant";

  using pointer = tenant_actor::stateful_pointer<tenant_state>;

  tenant_state() = default;

  caf::result<domain::tenant> update_tenant(pointer self, domain::tenant_patch& patch);
  caf::result<issued_api_key> issue_api_key(pointer self, api_key_request& req);
  caf::result<domain::api_key_info> set_api_key_status(pointer self,
                                                       const api_key_status_change& change);
  caf::result<bool> delete_api_key(pointer self, const api_key_removal& removal);
  caf::result<domain::voice_provider_config> add_voice_provider(pointer self,
                                                                voice_provider_create& req);
  caf::result<domain::campaign> create_campaign(pointer self, campaign_create& req);
  caf::result<domain::product> add_product(pointer self, domain::product& product);
  caf::result<domain::created_client> create_client(pointer self, domain::client_create& req);
  caf::result<assignment_set> replace_assignments(pointer self, assignment_replace& req);
  caf::result<domain::client_form> create_form(pointer self, form_create& req);
  caf::result<domain::form_submission> record_submission(pointer self,
                                                         domain::form_submission& sub);
  caf::result<domain::payment_request> issue_payment(pointer self, domain::payment_request& req);
  caf::result<domain::payment_request> change_payment(pointer self, payment_change& change);
  caf::result<bool> add_do_not_call(pointer self, const do_not_call_change& change);
  caf::result<bool> remove_do_not_call(pointer self, const do_not_call_change& change);
  caf::result<bool> set_webhook_secret(pointer self, const webhook_secret_set& secret);
  caf::result<bool> replay_webhook(pointer self, const webhook_replay& replay);
  void idle_tick(pointer self);

  int64_t tenant_id = 0;
};

tenant_actor::behavior_type tenant(tenant_state::pointer self, int64_t tenant_id,
                                   entity_config_ptr config, registry_actor registry);

} // namespace vcs::actors
