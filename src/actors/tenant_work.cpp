// The tenant actor's commands: each runs in the next group commit.

#include "actors/actor_error.hpp"
#include "actors/billing_work.hpp"
#include "actors/tenant_actor.hpp"
#include "actors/voice_gateway.hpp"
#include "domain/api_key.hpp"
#include "domain/campaign_errors.hpp"
#include "domain/global_id.hpp"
#include "domain/legal_window.hpp"
#include "domain/webhook_event.hpp"
#include "storage/api_key_repository.hpp"
#include "storage/assignment_repository.hpp"
#include "storage/billing_repository.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/client_repository.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/form_repository.hpp"
#include "storage/member_repository.hpp"
#include "storage/phone_number_pool_repository.hpp"
#include "storage/product_repository.hpp"
#include "storage/tenant_repository.hpp"
#include "storage/voice_provider_repository.hpp"
#include "storage/webhook_repository.hpp"

#include <caf/event_based_actor.hpp>

namespace vcs::actors {

namespace {

domain::error key_not_found() {
  return domain::not_found("API key not found");
}

// A key asking to change a key that reaches more than itself is refused;
// the key is locked until the change commits.
std::optional<domain::error> refuse_key_change(soci::session& sql, int64_t tenant_id,
                                               int64_t key_id,
                                               const std::optional<domain::key_scope>& holder) {
  if (!holder)
    return std::nullopt;
  auto target = storage::lock_api_key(sql, tenant_id, key_id);
  if (!target)
    return key_not_found();
  return domain::check_within(*holder, target->scope);
}

domain::error tenant_not_found() {
  return domain::not_found("Tenant not found");
}

} // namespace

caf::result<domain::tenant> tenant_state::update_tenant(domain::tenant_patch& patch) {
  return write(self,
               [id = tenant_id,
                patch = std::move(patch)](soci::session& sql) -> domain::result<domain::tenant> {
                 auto t = storage::update_tenant(sql, id, patch);
                 if (!t)
                   return tenant_not_found();
                 // Its members are signed out everywhere, not only refused
                 // while it stays inactive.
                 if (patch.active == false)
                   storage::end_tenant_sessions(sql, id);
                 return std::move(*t);
               });
}

caf::result<issued_api_key> tenant_state::issue_api_key(api_key_request& req) {
  return write(
      self,
      [id = tenant_id, req = std::move(req)](soci::session& sql) -> domain::result<issued_api_key> {
        // The list, and every read of it, stay bounded.
        if (storage::count_api_keys_locked(sql, id) >= domain::max_api_keys_per_tenant)
          return domain::too_many_api_keys();
        auto key = domain::generate_api_key();
        auto info = storage::insert_api_key(sql, id, req.name, key.hash, key.masked_key, req.scope);
        return issued_api_key{std::move(info), std::move(key.key)};
      });
}

caf::result<domain::api_key_info>
tenant_state::set_api_key_status(const api_key_status_change& change) {
  return write(
      self, [id = tenant_id, change](soci::session& sql) -> domain::result<domain::api_key_info> {
        if (auto refused = refuse_key_change(sql, id, change.key_id, change.holder))
          return *refused;
        auto info = storage::set_api_key_status(sql, id, change.key_id, change.status);
        if (!info)
          return key_not_found();
        return std::move(*info);
      });
}

caf::result<bool> tenant_state::delete_api_key(const api_key_removal& removal) {
  return write(self, [id = tenant_id, removal](soci::session& sql) -> domain::result<bool> {
    if (auto refused = refuse_key_change(sql, id, removal.key_id, removal.holder))
      return *refused;
    if (!storage::delete_api_key(sql, id, removal.key_id))
      return key_not_found();
    return true;
  });
}

caf::result<domain::voice_provider_config>
tenant_state::add_voice_provider(voice_provider_create& req) {
  return write(self,
               [id = tenant_id, req = std::move(req)](
                   soci::session& sql) -> domain::result<domain::voice_provider_config> {
                 auto made = storage::insert_voice_provider(sql, id, req.kind, req.credentials,
                                                            req.concurrency_limit);
                 if (!made)
                   return domain::too_many_voice_providers();
                 return std::move(*made);
               });
}

// The tenant row lock makes the count and the insert one step on every node.
caf::result<domain::campaign> tenant_state::create_campaign(campaign_create& req) {
  return write(self,
               [id = tenant_id,
                req = std::move(req)](soci::session& sql) -> domain::result<domain::campaign> {
                 auto quota = storage::lock_campaign_quota(sql, id);
                 if (!quota)
                   return tenant_not_found();
                 const auto& vp = req.fields.voice_provider_id;
                 if (vp && !storage::hold_voice_provider(sql, id, *vp))
                   return domain::voice_provider_not_found(req.voice_provider_ref);
                 if (auto refused = storage::hold_named_pool(sql, id, req.fields))
                   return std::move(*refused);
                 if (quota->used >= quota->limit)
                   return domain::campaign_limit_reached(quota->limit);
                 auto made = storage::insert_campaign(sql, id, req.fields);
                 if (auto refused = domain::refuse_useless_window(made, req.fields, domain::now()))
                   return std::move(*refused);
                 return made;
               });
}

caf::result<domain::product> tenant_state::add_product(domain::product& product) {
  return write(self,
               [id = tenant_id, product = std::move(product)](
                   soci::session& sql) -> domain::result<domain::product> {
                 auto added = storage::insert_product(sql, id, product);
                 if (!added)
                   return domain::error{domain::errc::conflict,
                                        "The catalog already has this product_id or price_id"};
                 return std::move(*added);
               });
}

caf::result<domain::created_client> tenant_state::create_client(domain::client_create& req) {
  return write(self, [id = tenant_id, req = std::move(req)](soci::session& sql) {
    return storage::create_client(sql, id, req);
  });
}

caf::result<assignment_set> tenant_state::replace_assignments(assignment_replace& req) {
  return write(
      self,
      [id = tenant_id, req = std::move(req)](soci::session& sql) -> domain::result<assignment_set> {
        auto set = storage::replace_assignments(sql, id, req.config_id, req.set, req.campaign_ids,
                                                req.holder);
        if (!set)
          return std::move(set).err();
        return assignment_set{std::move(*set)};
      });
}

caf::result<domain::client_form> tenant_state::create_form(form_create& req) {
  return write(self, [id = tenant_id, title = std::move(req.title)](soci::session& sql) {
    return storage::insert_client_form(sql, id, title);
  });
}

caf::result<domain::form_submission> tenant_state::record_submission(domain::form_submission& sub) {
  return write(self, [id = tenant_id, sub = std::move(sub)](soci::session& sql) {
    return storage::insert_submission(sql, id, sub);
  });
}

caf::result<domain::payment_request> tenant_state::issue_payment(domain::payment_request& req) {
  return write(self, [cfg = config, id = tenant_id, req = std::move(req)](soci::session& sql) {
    return actors::issue_payment(sql, *cfg, id, req);
  });
}

caf::result<domain::payment_request> tenant_state::change_payment(payment_change& change) {
  return write(self, [id = tenant_id, change = std::move(change)](soci::session& sql) {
    return actors::change_payment(sql, id, std::nullopt, change);
  });
}

caf::result<bool> tenant_state::add_do_not_call(const do_not_call_change& change) {
  return write(self, [id = tenant_id, change](soci::session& sql) {
    return storage::add_do_not_call(sql, id, change.phone_number);
  });
}

caf::result<bool> tenant_state::remove_do_not_call(const do_not_call_change& change) {
  return write(self, [id = tenant_id, change](soci::session& sql) {
    return storage::remove_do_not_call(sql, id, change.phone_number);
  });
}

caf::result<storage::secret_rotation>
tenant_state::set_webhook_secret(const webhook_secret_set& secret) {
  return write(
      self,
      [id = tenant_id, secret](soci::session& sql) -> domain::result<storage::secret_rotation> {
        auto rotation = storage::store_webhook_secret(sql, id, secret.secret, secret.grace_seconds);
        if (!rotation)
          return tenant_not_found();
        return *rotation;
      });
}

caf::result<storage::webhook_delivery> tenant_state::replay_webhook(const webhook_replay& replay) {
  return write(
      self,
      [id = tenant_id, replay](soci::session& sql) -> domain::result<storage::webhook_delivery> {
        auto delivery = storage::replay_webhook(sql, id, replay.delivery_id, replay.campaigns);
        if (!delivery)
          return domain::not_found("Webhook delivery not found");
        return *delivery;
      });
}

caf::result<storage::webhook_endpoint>
tenant_state::enable_endpoint(const webhook_endpoint_enable& enable) {
  return write(
      self,
      [id = tenant_id, enable](soci::session& sql) -> domain::result<storage::webhook_endpoint> {
        auto endpoint = storage::enable_webhook_endpoint(sql, id, enable.endpoint_id);
        if (!endpoint)
          return domain::not_found("Webhook endpoint not found");
        return *endpoint;
      });
}

caf::result<storage::webhook_delivery> tenant_state::queue_test_event(const webhook_test& test) {
  return write(
      self,
      [id = tenant_id, test](soci::session& sql) -> domain::result<storage::webhook_delivery> {
        auto c = storage::find_campaign(sql, id, test.campaign_id);
        if (!c)
          return domain::campaign_not_found();
        if (!c->webhook_url) {
          domain::field_errors fields;
          fields.add("webhook_url", "The campaign has no webhook_url to send a test event to.");
          return domain::invalid_data(std::move(fields));
        }
        const auto campaign_id = domain::encode_global_id(domain::entity::campaign, c->id);
        domain::webhook_envelope e{"webhook.test", domain::new_event_id(), domain::now()};
        auto queued = storage::enqueue_webhook(
            sql, id, c->id, *c->webhook_url, e.id, e.type,
            domain::to_json(e, domain::test_event_data(campaign_id, *c->webhook_url)));
        return *storage::find_webhook(sql, id, queued);
      });
}

caf::result<inquiry_result> tenant_state::inquire(provider_inquiry& q) {
  idle.touch();
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(lists, [&](const auto& kept) { return now - kept.second.at >= list_reuse; });
  const bool lists_items = q.what != inquiry_kind::verify;
  const list_key key{q.voice_provider_id, q.version, q.what};
  if (lists_items)
    if (auto kept = lists.find(key); kept != lists.end())
      return kept->second.result;
  if (inquiries.size() >= inquiries_max)
    return make_error({domain::errc::too_many_requests,
                       "Two requests to this tenant's voice providers are already under way; "
                       "try again when they have answered"});
  const auto token = next_inquiry++;
  auto promise = self->make_response_promise<inquiry_result>();
  inquiries.emplace(token, promise);
  if (lists_items)
    listing.emplace(token, key);
  auto me = caf::actor_cast<tenant_actor>(self);
  config->gateway->inquire(q, [me, token](inquiry_result r) {
    caf::anon_send(me, inquired_atom::value, token, std::move(r));
  });
  return promise;
}

void tenant_state::inquired(uint64_t token, inquiry_result& r) {
  auto waiting = inquiries.find(token);
  if (waiting == inquiries.end())
    return;
  // Only a vendor's good answer is kept: a failure is asked again.
  if (auto key = listing.find(token); key != listing.end()) {
    if (r.outcome == inquiry_outcome::ok)
      lists[key->second] = {r, std::chrono::steady_clock::now()};
    listing.erase(key);
  }
  waiting->second.deliver(std::move(r));
  inquiries.erase(waiting);
}

void tenant_state::idle_tick() {
  idle.tick(self, writes.busy() || !inquiries.empty(), registry, tenant_atom::value, tenant_id);
}

} // namespace vcs::actors
