#include "actors/tenant_actor.hpp"

#include "actors/billing_work.hpp"

#include "domain/api_key.hpp"
#include "domain/campaign_errors.hpp"
#include "storage/api_key_repository.hpp"
#include "storage/assignment_repository.hpp"
#include "storage/billing_repository.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/client_repository.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/form_repository.hpp"
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

// Inside the create transaction: the tenant row lock makes the count and the
// insert one step on every node.
domain::campaign create_campaign(soci::session& sql, int64_t tenant_id,
                                 const campaign_create& req) {
  auto quota = storage::lock_campaign_quota(sql, tenant_id);
  if (!quota)
    throw storage::failure(domain::not_found("Tenant not found"));
  const auto& vp = req.fields.voice_provider_id;
  if (vp && !storage::voice_provider_exists(sql, tenant_id, *vp))
    throw storage::failure(domain::voice_provider_not_found(req.voice_provider_ref));
  if (quota->used >= quota->limit)
    throw storage::failure(domain::campaign_limit_reached(quota->limit));
  return storage::insert_campaign(sql, tenant_id, req.fields);
}

} // namespace

tenant_actor::behavior_type tenant(tenant_actor::stateful_pointer<tenant_state> self,
                                   int64_t tenant_id, entity_config_ptr config,
                                   registry_actor registry) {
  self->state.tenant_id = tenant_id;
  self->state.start(self, std::move(config), std::move(registry), tenant_id);
  return {
      [self](update_atom, storage::tenant_patch& patch) -> caf::result<domain::tenant> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::tenant>(
            self, [id, patch = std::move(patch)](soci::session& sql) -> std::any {
              auto t = storage::update_tenant(sql, id, patch);
              if (!t)
                throw storage::failure(domain::not_found("Tenant not found"));
              return *t;
            });
      },
      [self](create_atom, api_key_request& req) -> caf::result<issued_api_key> {
        auto id = self->state.tenant_id;
        return self->state.write<issued_api_key>(
            self, [id, name = std::move(req.name)](soci::session& sql) -> std::any {
              auto key = domain::generate_api_key();
              auto info = storage::insert_api_key(sql, id, name, key.hash, key.masked_key);
              return issued_api_key{std::move(info), std::move(key.key)};
            });
      },
      [self](update_atom, api_key_status_change& change) -> caf::result<domain::api_key_info> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::api_key_info>(
            self, [id, change](soci::session& sql) -> std::any {
              auto info = storage::set_api_key_status(sql, id, change.key_id, change.status);
              if (!info)
                throw storage::failure(key_not_found());
              return *info;
            });
      },
      [self](create_atom, do_not_call_change& c) -> caf::result<bool> {
        auto id = self->state.tenant_id;
        return self->state.write<bool>(self, [id, c](soci::session& sql) -> std::any {
          return storage::add_do_not_call(sql, id, c.phone_number);
        });
      },
      [self](delete_atom, do_not_call_change& c) -> caf::result<bool> {
        auto id = self->state.tenant_id;
        return self->state.write<bool>(self, [id, c](soci::session& sql) -> std::any {
          return storage::remove_do_not_call(sql, id, c.phone_number);
        });
      },
      [self](update_atom, webhook_secret_set& s) -> caf::result<bool> {
        auto id = self->state.tenant_id;
        return self->state.write<bool>(self, [id, s](soci::session& sql) -> std::any {
          if (!storage::store_webhook_secret(sql, id, s.secret))
            throw storage::failure(domain::not_found("Tenant not found"));
          return true;
        });
      },
      [self](update_atom, webhook_replay r) -> caf::result<bool> {
        auto id = self->state.tenant_id;
        return self->state.write<bool>(self, [id, r](soci::session& sql) -> std::any {
          return storage::replay_webhook(sql, id, r.delivery_id);
        });
      },
      [self](delete_atom, api_key_removal& removal) -> caf::result<bool> {
        auto id = self->state.tenant_id;
        return self->state.write<bool>(self, [id, removal](soci::session& sql) -> std::any {
          if (!storage::delete_api_key(sql, id, removal.key_id))
            throw storage::failure(key_not_found());
          return true;
        });
      },
      [self](create_atom,
             voice_provider_create& req) -> caf::result<domain::voice_provider_config> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::voice_provider_config>(
            self, [id, req = std::move(req)](soci::session& sql) -> std::any {
              return storage::insert_voice_provider(sql, id, req.kind, req.credentials,
                                                    req.concurrency_limit);
            });
      },
      [self](create_atom, campaign_create& req) -> caf::result<domain::campaign> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::campaign>(
            self, [id, req = std::move(req)](soci::session& sql) -> std::any {
              return create_campaign(sql, id, req);
            });
      },
      [self](create_atom, domain::product& product) -> caf::result<domain::product> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::product>(
            self, [id, product = std::move(product)](soci::session& sql) -> std::any {
              try {
                return storage::insert_product(sql, id, product);
              } catch (const std::exception& e) {
                if (storage::is_unique_violation(e))
                  throw storage::failure(
                      domain::error{domain::errc::conflict,
                                    "The catalog already has this product_id or price_id"});
                throw;
              }
            });
      },
      [self](create_atom, domain::client_create& req) -> caf::result<domain::created_client> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::created_client>(
            self, [id, req = std::move(req)](soci::session& sql) -> std::any {
              return storage::create_client(sql, id, req);
            });
      },
      [self](update_atom, assignment_replace& req) -> caf::result<assignment_set> {
        auto id = self->state.tenant_id;
        return self->state.write<assignment_set>(
            self, [id, req = std::move(req)](soci::session& sql) -> std::any {
              return assignment_set{
                  storage::replace_assignments(sql, id, req.config_id, req.set, req.campaign_ids)};
            });
      },
      [self](create_atom, form_create& req) -> caf::result<domain::client_form> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::client_form>(
            self, [id, title = std::move(req.title)](soci::session& sql) -> std::any {
              return storage::insert_client_form(sql, id, title);
            });
      },
      [self](create_atom, domain::form_submission& sub) -> caf::result<domain::form_submission> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::form_submission>(
            self, [id, sub = std::move(sub)](soci::session& sql) -> std::any {
              return storage::insert_submission(sql, id, sub);
            });
      },
      [self](create_atom, domain::payment_request& req) -> caf::result<domain::payment_request> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::payment_request>(
            self,
            [cfg = self->state.config, id, req = std::move(req)](soci::session& sql) -> std::any {
              return issue_payment(sql, *cfg, id, req);
            });
      },
      [self](update_atom, payment_change& change) -> caf::result<domain::payment_request> {
        auto id = self->state.tenant_id;
        return self->state.write<domain::payment_request>(
            self, [id, change = std::move(change)](soci::session& sql) -> std::any {
              return change_payment(sql, id, std::nullopt, change);
            });
      },
      [self](idle_atom) {
        auto& st = self->state;
        st.idle.tick(self, st.writes.busy(), st.registry, tenant_atom::value, st.tenant_id);
      },
  };
}

} // namespace vcs::actors
