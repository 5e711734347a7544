#include "actors/dial_scheduler.hpp"

#include "actors/actor_error.hpp"
#include "actors/ask_database.hpp"
#include "actors/work_counters.hpp"
#include "storage/dialer_repository.hpp"

#include <caf/event_based_actor.hpp>
#include <spdlog/spdlog.h>

#include <set>

namespace vcs::actors {

namespace {

using self_ptr = dial_scheduler_actor::stateful_pointer<dial_scheduler_state>;

constexpr int32_t calls_per_round = 200;

// What one round found to do, read in one database task.
struct round_work {
  std::vector<storage::campaign_ref> campaigns;
  std::vector<storage::call_ref> lost;
  std::vector<storage::usage_due> usage;
};

void begin(self_ptr self, serial_rounds<dial_counts>::round next);

void finish(self_ptr self) {
  auto& st = self->state;
  if (st.reply)
    st.reply->deliver(st.counts);
  st.reply.reset();
  if (auto next = st.rounds.finished())
    begin(self, std::move(*next));
}

void one_done(self_ptr self) {
  if (--self->state.outstanding == 0)
    finish(self);
}

void dial(self_ptr self, const storage::campaign_ref& ref, domain::timestamp now) {
  auto& st = self->state;
  auto timeout = st.config->pool->timeout();
  auto failed = [self, ref](const caf::error& e) {
    spdlog::warn("dial pass of campaign {} failed: {}", ref.campaign_id,
                 to_domain_error(e).message);
    ++self->state.counts.failed;
    ++counters().dial_passes_failed;
    one_done(self);
  };
  self->request(st.registry, timeout, caf::get_atom::value, campaign_atom::value, ref.tenant_id,
                ref.campaign_id)
      .then(
          [self, failed, timeout, now](campaign_actor& c) {
            self->request(c, timeout, dial_atom::value, dial_request{now})
                .then(
                    [self](int64_t placed) {
                      ++self->state.counts.campaigns;
                      self->state.counts.calls_placed += placed;
                      counters().calls_placed += static_cast<std::uint64_t>(placed);
                      one_done(self);
                    },
                    [failed](caf::error& e) { failed(e); });
          },
          [failed](caf::error& e) { failed(e); });
}

// A call whose report never came ends as failed: its slot is freed and the
// lead gets its next attempt.
void end_lost(self_ptr self, const storage::call_ref& ref) {
  call_update u;
  u.what = call_update::kind::ended;
  u.call_id = ref.call_id;
  u.outcome = domain::call_outcome::failed;
  u.error = "call_lost";
  self->request(self->state.registry, self->state.config->pool->timeout(), caf::get_atom::value,
                campaign_atom::value, ref.tenant_id, ref.campaign_id)
      .then([u](campaign_actor& c) { caf::anon_send(c, call_atom::value, u); }, [](caf::error&) {});
}

void record_usage(self_ptr self, const storage::usage_due& due) {
  auto& st = self->state;
  auto timeout = st.config->pool->timeout();
  if (!due.subscription_id) {
    // No subscription holds the campaign: nothing to charge.
    auto t = due.tenant_id;
    auto id = due.call_id;
    ask_database(
        self, st.config->pool->dispatcher(), timeout, static_cast<std::uint64_t>(t),
        [t, id](soci::session& sql) { return storage::take_call_usage(sql, t, id).has_value(); },
        [](bool) {}, [](const caf::error&) {});
    return;
  }
  auto id = due.call_id;
  self->request(st.registry, timeout, caf::get_atom::value, subscr_atom::value, due.tenant_id,
                *due.subscription_id)
      .then(
          [self, timeout, id](subscription_actor& s) {
            self->request(s, timeout, usage_atom::value, call_atom::value, id)
                .then([](bool) {},
                      [id](caf::error& e) {
                        spdlog::warn("minutes of call {} not recorded yet: {}", id,
                                     to_domain_error(e).message);
                      });
          },
          [](caf::error&) {});
}

void begin(self_ptr self, serial_rounds<dial_counts>::round next) {
  auto& st = self->state;
  st.reply = std::move(next.reply);
  st.counts = {};
  st.outstanding = 1; // the round itself, released below
  auto now = next.now;
  auto s = st.settings;
  bool periodic = !st.reply.has_value();
  auto claim = [now, s, periodic, node = st.config->node_id](soci::session& sql) {
    round_work w;
    w.campaigns = storage::claim_due_campaigns(sql, now, s.lease_seconds, s.campaigns_per_round,
                                               periodic, node);
    auto past_end = storage::campaigns_past_end(sql, now, s.campaigns_per_round);
    w.campaigns.insert(w.campaigns.end(), past_end.begin(), past_end.end());
    w.lost = storage::lost_calls(sql, s.lost_call_seconds, calls_per_round);
    w.usage = storage::calls_without_usage(sql, calls_per_round);
    return w;
  };
  ask_database(
      self, st.config->pool->dispatcher(), st.config->pool->timeout(), 0, std::move(claim),
      [self, now](const round_work& w) {
        std::set<std::pair<int64_t, int64_t>> seen;
        for (const auto& ref : w.campaigns) {
          if (!seen.emplace(ref.tenant_id, ref.campaign_id).second)
            continue;
          ++self->state.outstanding;
          dial(self, ref, now);
        }
        for (const auto& ref : w.lost)
          end_lost(self, ref);
        for (const auto& due : w.usage)
          record_usage(self, due);
        one_done(self);
      },
      [self](const caf::error& e) {
        spdlog::warn("dial round failed: {}", to_domain_error(e).message);
        if (self->state.reply)
          self->state.reply->deliver(e);
        self->state.reply.reset();
        one_done(self);
      });
}

} // namespace

dial_scheduler_actor::behavior_type
dial_scheduler(dial_scheduler_actor::stateful_pointer<dial_scheduler_state> self,
               entity_config_ptr config, registry_actor registry,
               dial_scheduler_settings settings) {
  self->state.config = std::move(config);
  self->state.registry = std::move(registry);
  self->state.settings = settings;
  self->send(self, tick_atom::value);
  return {
      [self](tick_atom) {
        if (auto round = self->state.rounds.tick(domain::now()))
          begin(self, std::move(*round));
        self->delayed_send(self, self->state.settings.interval, tick_atom::value);
      },
      [self](dial_atom, dial_request req) -> caf::result<dial_counts> {
        auto rp = self->make_response_promise<dial_counts>();
        if (auto round = self->state.rounds.ask({req.now, rp}))
          begin(self, std::move(*round));
        return rp;
      },
  };
}

} // namespace vcs::actors
