#include "actors/campaign_actor.hpp"

#include "domain/campaign_errors.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/voice_provider_repository.hpp"

#include <caf/event_based_actor.hpp>

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
  if (to == campaign_status::active) {
    if (auto blocked = storage::blocking_subscription_status(sql, tenant_id, campaign_id))
      throw storage::failure(domain::campaign_status_rejected(
          "The client's subscription is " + *blocked +
          "; its campaigns cannot become ACTIVE until the payment is resolved."));
  }
  return storage::set_campaign_status(sql, tenant_id, campaign_id, to);
}

} // namespace

campaign_actor::behavior_type campaign(campaign_actor::stateful_pointer<campaign_state> self,
                                       int64_t tenant_id, int64_t campaign_id,
                                       std::shared_ptr<const db_pool> pool, registry_actor registry,
                                       std::chrono::milliseconds idle_timeout) {
  self->state.tenant_id = tenant_id;
  self->state.campaign_id = campaign_id;
  self->state.start(self, std::move(pool), std::move(registry), idle_timeout);
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
      [self](idle_atom) {
        auto& st = self->state;
        st.idle.tick(self, st.writes.busy(), st.registry, campaign_atom::value, st.tenant_id,
                     st.campaign_id);
      },
  };
}

} // namespace vcs::actors
