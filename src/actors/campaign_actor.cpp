#include "actors/campaign_actor.hpp"

#include "actors/dialer_work.hpp"
#include "actors/voice_gateway.hpp"
#include "domain/campaign_errors.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/import_job_repository.hpp"
#include "storage/lead_repository.hpp"
#include "storage/voice_provider_repository.hpp"
#include "storage/web_widget_repository.hpp"

#include <caf/actor_cast.hpp>
#include <caf/event_based_actor.hpp>
#include <spdlog/spdlog.h>

namespace vcs::actors {

namespace {

// A create-only field may be sent on update only with its stored value
// (docs/decisions.md): sending a different one is the spec's "immutable".
void check_unchanged(const char* field, const std::optional<std::string>& sent,
                     const std::optional<std::string>& stored) {
  if (sent && sent != stored)
    throw storage::failure(domain::immutable_field(field));
}

// The stored fields with the update laid over them, for the rules that
// relate two fields (daily window, attempts), whichever of them was sent.
domain::campaign_fields merged(const domain::campaign& c, const domain::campaign_fields& u) {
  domain::campaign_fields m;
  m.max_call_attempts = u.max_call_attempts ? u.max_call_attempts : c.max_call_attempts;
  m.max_daily_attempts = u.max_daily_attempts ? u.max_daily_attempts : c.max_daily_attempts;
  m.daily_start_time = u.daily_start_time ? u.daily_start_time : c.daily_start_time;
  m.daily_end_time = u.daily_end_time ? u.daily_end_time : c.daily_end_time;
  return m;
}

domain::campaign update(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                        campaign_update req) {
  auto current = storage::find_campaign(sql, tenant_id, campaign_id, true);
  if (!current)
    throw storage::failure(domain::campaign_not_found());
  auto& f = req.fields;
  check_unchanged("type", f.type, current->type);
  check_unchanged("provider_a_calling_entity", f.provider_a_calling_entity,
                  current->provider_a_calling_entity);
  check_unchanged("start_date", f.start_date, current->start_date);
  check_unchanged("end_date", f.end_date, current->end_date);
  if (f.voice_provider_id && !storage::voice_provider_exists(sql, tenant_id, *f.voice_provider_id))
    throw storage::failure(domain::voice_provider_not_found(req.voice_provider_ref));
  domain::field_errors errors;
  domain::validate_campaign(merged(*current, f), false, errors);
  if (!errors.empty())
    throw storage::failure(domain::invalid_data(std::move(errors)));
  return storage::update_campaign(sql, tenant_id, campaign_id, f);
}

domain::campaign change_status(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                               domain::campaign_status to) {
  using domain::campaign_status;
  auto current = storage::find_campaign(sql, tenant_id, campaign_id, true);
  if (!current)
    throw storage::failure(domain::campaign_not_found());
  if (current->status == to)
    return *current;
  if (current->status == campaign_status::ended)
    throw storage::failure(
        domain::campaign_status_rejected("An ENDED campaign cannot change its status."));
  // A billing block pauses ACTIVE and SCHEDULED campaigns; neither may
  // start again until it is lifted. This read follows the campaign row lock,
  // so it sees a block committed while the lock was awaited
  // (subscription_repository.cpp).
  if (to == campaign_status::active || to == campaign_status::scheduled) {
    if (auto blocked = storage::blocking_subscription_status(sql, tenant_id, campaign_id))
      throw storage::failure(domain::campaign_status_rejected(
          "The client's subscription is " + *blocked +
          "; its campaigns cannot become ACTIVE or SCHEDULED until the payment is resolved."));
  }
  return storage::set_campaign_status(sql, tenant_id, campaign_id, to);
}

// One chunk of an import, in the group commit's transaction: claim, insert,
// advance. Returns whether rows remain.
bool import_chunk(soci::session& sql, const entity_config& cfg, int64_t job_id) {
  auto chunk = storage::claim_import_chunk(sql, job_id, cfg.node_id, cfg.import_chunk_size,
                                           cfg.import_stale_seconds);
  if (!chunk)
    return false;
  storage::insert_counts counts;
  if (chunk->count > 0)
    counts = storage::insert_leads(sql, chunk->tenant_id, chunk->campaign_id, chunk->rows_json,
                                   chunk->count);
  return storage::complete_import_chunk(sql, job_id, chunk->count, counts);
}

// Works through a job one chunk per group commit, so single-lead writes
// queued meanwhile go into the same transactions instead of waiting.
void continue_import(campaign_actor::stateful_pointer<campaign_state> self, int64_t job_id) {
  auto cfg = self->state.config;
  self->state.write_then(
      self,
      [cfg, job_id](soci::session& sql) -> std::any { return import_chunk(sql, *cfg, job_id); },
      [self, job_id](std::any& more) {
        if (std::any_cast<bool>(more))
          continue_import(self, job_id);
        else
          self->state.importing.erase(job_id);
      },
      [self, job_id](const caf::error& e) {
        spdlog::warn("import {} paused after an error ({}); retrying", job_id, to_string(e));
        self->state.importing.erase(job_id);
        self->delayed_send(self, std::chrono::seconds(5), import_atom::value, job_id);
      });
}

// Hands each reserved call to the provider; its reports come back here.
void place_calls(campaign_actor::stateful_pointer<campaign_state> self,
                 const std::vector<call_placement>& calls) {
  auto me = caf::actor_cast<campaign_actor>(self);
  for (const auto& call : calls) {
    self->state.open_calls.insert(call.call_id);
    self->state.config->gateway->place(call, me);
  }
}

} // namespace

campaign_actor::behavior_type campaign(campaign_actor::stateful_pointer<campaign_state> self,
                                       int64_t tenant_id, int64_t campaign_id,
                                       entity_config_ptr config, registry_actor registry) {
  self->state.tenant_id = tenant_id;
  self->state.campaign_id = campaign_id;
  self->state.start(self, std::move(config), std::move(registry), tenant_id);
  self->state.writes.set_prologue([tenant_id, campaign_id](soci::session& sql) {
    storage::lock_campaign(sql, tenant_id, campaign_id);
  });
  return {
      [self](update_atom, campaign_update& req) -> caf::result<domain::campaign> {
        auto t = self->state.tenant_id;
        auto c = self->state.campaign_id;
        return self->state.write<domain::campaign>(
            self, [t, c, req = std::move(req)](soci::session& sql) -> std::any {
              return update(sql, t, c, req);
            });
      },
      [self](update_atom, status_atom,
             domain::campaign_status to) -> caf::result<domain::campaign> {
        auto t = self->state.tenant_id;
        auto c = self->state.campaign_id;
        return self->state.write<domain::campaign>(
            self,
            [t, c, to](soci::session& sql) -> std::any { return change_status(sql, t, c, to); });
      },
      [self](create_atom, lead_row& lead) -> caf::result<bool> {
        auto t = self->state.tenant_id;
        auto c = self->state.campaign_id;
        return self->state.write<bool>(
            self, [t, c, row = std::move(lead.json)](soci::session& sql) -> std::any {
              if (storage::insert_leads(sql, t, c, "[" + row + "]", 1).inserted == 0)
                throw storage::failure(
                    domain::error{domain::errc::conflict,
                                  "A lead with this phone number already exists in the campaign"}
                        .with_detail(std::vector<std::string>{"phone_number: Duplicate lead."}));
              return true;
            });
      },
      [self](update_atom, lead_updates& req) -> caf::result<lead_outcomes> {
        auto t = self->state.tenant_id;
        auto c = self->state.campaign_id;
        return self->state.write<lead_outcomes>(
            self, [t, c, req = std::move(req)](soci::session& sql) -> std::any {
              return lead_outcomes{storage::update_leads(sql, t, c, req.items)};
            });
      },
      [self](delete_atom, lead_removals& req) -> caf::result<lead_outcomes> {
        auto t = self->state.tenant_id;
        auto c = self->state.campaign_id;
        return self->state.write<lead_outcomes>(
            self, [t, c, req = std::move(req)](soci::session& sql) -> std::any {
              return lead_outcomes{storage::remove_leads(sql, t, c, req.items)};
            });
      },
      [self](import_atom, import_request& req) -> caf::result<int64_t> {
        auto t = self->state.tenant_id;
        auto c = self->state.campaign_id;
        auto rp = self->make_response_promise<int64_t>();
        self->state.write_then(
            self,
            [t, c, req = std::move(req)](soci::session& sql) -> std::any {
              return storage::insert_import_job(sql, t, c, req.rows_json, req.accepted,
                                                req.invalid);
            },
            [self, rp](std::any& id) mutable {
              auto job_id = std::any_cast<int64_t>(id);
              rp.deliver(job_id);
              if (self->state.importing.insert(job_id).second)
                continue_import(self, job_id);
            },
            [rp](const caf::error& e) mutable { rp.deliver(e); });
        return rp;
      },
      [self](create_atom, widget_create& req) -> caf::result<domain::web_widget> {
        auto t = self->state.tenant_id;
        return self->state.write<domain::web_widget>(
            self, [t, req = std::move(req)](soci::session& sql) -> std::any {
              try {
                return storage::insert_web_widget(sql, t, req.widget, req.config_json);
              } catch (const std::exception& e) {
                if (storage::is_unique_violation(e))
                  throw storage::failure(domain::error{
                      domain::errc::conflict, "A web widget already exists for this campaign"}
                                             .with_errors({"Duplicate web widget"}));
                throw;
              }
            });
      },
      [self](dial_atom, dial_request req) -> caf::result<int64_t> {
        auto cfg = self->state.config;
        auto t = self->state.tenant_id;
        auto c = self->state.campaign_id;
        auto rp = self->make_response_promise<int64_t>();
        self->state.write_then(
            self,
            [cfg, t, c, req](soci::session& sql) -> std::any {
              return dial_pass(sql, *cfg, t, c, req.now);
            },
            [self, rp](std::any& v) mutable {
              auto& calls = std::any_cast<std::vector<call_placement>&>(v);
              place_calls(self, calls);
              rp.deliver(static_cast<int64_t>(calls.size()));
            },
            [rp](const caf::error& e) mutable { rp.deliver(e); });
        return rp;
      },
      [self](call_atom, call_update& update) -> caf::result<bool> {
        auto t = self->state.tenant_id;
        auto c = self->state.campaign_id;
        auto id = update.call_id;
        auto rp = self->make_response_promise<bool>();
        self->state.write_then(
            self,
            [t, c, update = std::move(update)](soci::session& sql) -> std::any {
              return apply_call_update(sql, t, c, update, domain::now());
            },
            [self, id, rp](std::any& v) mutable {
              const bool ended = std::any_cast<bool>(v);
              if (ended)
                self->state.open_calls.erase(id);
              rp.deliver(ended);
            },
            [id, rp](const caf::error& e) mutable {
              // A provider retries an unacknowledged callback; for the
              // simulated provider the sweep ends calls whose report was
              // lost (lost_calls).
              spdlog::warn("call {}: report not applied ({})", id, to_string(e));
              rp.deliver(e);
            });
        return rp;
      },
      [self](import_atom, int64_t job_id) {
        if (self->state.importing.insert(job_id).second)
          continue_import(self, job_id);
      },
      [self](idle_atom) {
        auto& st = self->state;
        st.idle.tick(self, st.writes.busy() || !st.open_calls.empty(), st.registry,
                     campaign_atom::value, st.tenant_id, st.campaign_id);
      },
  };
}

} // namespace vcs::actors
