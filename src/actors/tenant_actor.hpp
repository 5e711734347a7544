#pragma once

#include "actors/entity_state.hpp"

#include <caf/response_promise.hpp>

#include <chrono>
#include <map>
#include <tuple>

namespace vcs::actors {

// One tenant's writes; each command runs in the next group commit
// (tenant_work.cpp), in the order of tenant_actor's interface.
struct tenant_state : entity_state {
  static inline const char* name = "tenant";

  using pointer = tenant_actor::stateful_pointer<tenant_state>;

  tenant_state() = default;

  // The actor this state belongs to (set first thing in its behaviour).
  pointer self = nullptr;

  caf::result<domain::tenant> update_tenant(domain::tenant_patch& patch);
  caf::result<issued_api_key> issue_api_key(api_key_request& req);
  caf::result<domain::api_key_info> set_api_key_status(const api_key_status_change& change);
  caf::result<bool> delete_api_key(const api_key_removal& removal);
  caf::result<domain::voice_provider_config> add_voice_provider(voice_provider_create& req);
  caf::result<domain::campaign> create_campaign(campaign_create& req);
  caf::result<domain::product> add_product(domain::product& product);
  caf::result<domain::created_client> create_client(domain::client_create& req);
  caf::result<assignment_set> replace_assignments(assignment_replace& req);
  caf::result<domain::client_form> create_form(form_create& req);
  caf::result<domain::form_submission> record_submission(domain::form_submission& sub);
  caf::result<domain::payment_request> issue_payment(domain::payment_request& req);
  caf::result<domain::payment_request> change_payment(payment_change& change);
  caf::result<bool> add_do_not_call(const do_not_call_change& change);
  caf::result<bool> remove_do_not_call(const do_not_call_change& change);
  caf::result<storage::secret_rotation> set_webhook_secret(const webhook_secret_set& secret);
  caf::result<storage::webhook_delivery> replay_webhook(const webhook_replay& replay);
  caf::result<storage::webhook_endpoint> enable_endpoint(const webhook_endpoint_enable& enable);
  caf::result<storage::webhook_delivery> queue_test_event(const webhook_test& test);
  caf::result<inquiry_result> inquire(provider_inquiry& q);
  void inquired(uint64_t token, inquiry_result& r);
  void idle_tick();

  int64_t tenant_id = 0;

  // A tenant's vendor inquiries under way on this node: at most
  // inquiries_max at once, so that one tenant's clicks cannot hold the
  // outbound client's connections (its lookups have their own share).
  static constexpr std::size_t inquiries_max = 2;
  std::map<uint64_t, caf::typed_response_promise<inquiry_result>> inquiries;
  uint64_t next_inquiry = 0;

  // Lists answered in the last list_reuse, per configuration, version and
  // kind: a page that opens its pickers again does not ask the vendor again.
  static constexpr std::chrono::seconds list_reuse{60};
  using list_key = std::tuple<int64_t, int64_t, inquiry_kind>;
  struct kept_list {
    inquiry_result result;
    std::chrono::steady_clock::time_point at;
  };
  std::map<list_key, kept_list> lists;
  // The key of each inquiry under way that lists (answers are kept).
  std::map<uint64_t, list_key> listing;
};

tenant_actor::behavior_type tenant(tenant_state::pointer self, int64_t tenant_id,
                                   entity_config_ptr config, registry_actor registry);

} // namespace vcs::actors
