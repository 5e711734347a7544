// The campaign actor's commands: each runs in the next group commit, after
// the campaign's row lock (lock_row_in_each_batch).

#include "actors/ask_database.hpp"
#include "actors/campaign_actor.hpp"
#include "actors/campaign_events.hpp"
#include "actors/dialer_work.hpp"
#include "actors/import_events.hpp"
#include "actors/voice_gateway.hpp"
#include "actors/work_counters.hpp"
#include "domain/campaign_changes.hpp"
#include "domain/campaign_errors.hpp"
#include "domain/legal_window.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/import_job_repository.hpp"
#include "storage/lead_repository.hpp"
#include "storage/phone_number_pool_repository.hpp"
#include "storage/voice_provider_repository.hpp"
#include "storage/web_widget_repository.hpp"

#include <caf/actor_cast.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/send.hpp>
#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <span>

namespace vcs::actors {

namespace {

// How long a parallel chunk's own transaction waits for a lock once the
// job's transaction has ended. A writer that holds the campaign's row and
// waits on the chunk's rows (a single add of one of its numbers) would
// otherwise deadlock with it; past this, the chunk gives way and goes the
// ordinary way.
constexpr std::chrono::milliseconds parallel_chunk_lock_wait{250};

domain::result<domain::campaign> update(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                        const campaign_update& req) {
  auto current = storage::find_campaign(sql, tenant_id, campaign_id, true);
  if (!current)
    return domain::campaign_not_found();
  const auto& f = req.fields;
  if (auto refused = domain::check_create_only_fields(*current, f))
    return std::move(*refused);
  if (f.voice_provider_id && !storage::hold_voice_provider(sql, tenant_id, *f.voice_provider_id))
    return domain::voice_provider_not_found(req.voice_provider_ref);
  if (auto refused = storage::hold_named_pool(sql, tenant_id, f))
    return std::move(*refused);
  if (auto refused = domain::check_related_fields(*current, f))
    return std::move(*refused);
  auto updated = storage::update_campaign(sql, tenant_id, campaign_id, f);
  if (auto refused = domain::refuse_useless_window(updated, f, domain::now()))
    return std::move(*refused);
  return updated;
}

domain::result<domain::campaign> move_to(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                         domain::campaign_status to) {
  auto current = storage::find_campaign(sql, tenant_id, campaign_id, true);
  if (!current)
    return domain::campaign_not_found();
  if (!domain::changes_status(*current, to))
    return std::move(*current);
  // This read follows the campaign row lock, so it sees a billing block
  // committed while the lock was awaited (subscription_repository.cpp).
  std::optional<std::string> blocked_by;
  if (domain::billing_may_block(to))
    blocked_by = storage::blocking_subscription_status(sql, tenant_id, campaign_id);
  if (auto refused = domain::check_status_change(current->status, to, blocked_by))
    return std::move(*refused);
  auto moved = storage::set_campaign_status(sql, tenant_id, campaign_id, to);
  status_event(sql, moved, current->status, domain::status_cause::manual);
  return moved;
}

// One chunk of an import: claim, insert, advance. Returns whether rows
// remain.
bool import_chunk(soci::session& sql, const entity_config& cfg, int64_t job_id) {
  auto chunk =
      storage::claim_import_chunk(sql, job_id, cfg.node_id, cfg.settings.import_stale_seconds);
  if (!chunk)
    return false;
  storage::insert_counts counts;
  if (chunk->count > 0)
    counts = storage::import_leads(sql, chunk->tenant_id, chunk->campaign_id, job_id,
                                   chunk->first_index, chunk->count, chunk->first_position);
  if (storage::complete_import_chunk(sql, job_id, *chunk, counts))
    return true;
  announce_import_end(sql, chunk->tenant_id, chunk->campaign_id, job_id);
  return false;
}

// A chunk the database refused for a reason other than time or a lost
// connection (errc::internal) would be refused again: the job stops there.
void fail_import(soci::session& sql, int64_t tenant_id, int64_t campaign_id, int64_t job_id) {
  if (storage::fail_import_job(
          sql, job_id,
          "The import stopped: the database refused a chunk of its rows. "
          "The rows of the chunks already imported stay; the pending rows were not "
          "imported."))
    announce_import_end(sql, tenant_id, campaign_id, job_id);
}

} // namespace

caf::result<domain::campaign> campaign_state::update_campaign(campaign_update& req) {
  return write(self, [t = tenant_id, c = campaign_id, req = std::move(req)](soci::session& sql) {
    return update(sql, t, c, req);
  });
}

caf::result<domain::campaign> campaign_state::change_status(domain::campaign_status to) {
  return write(self, [t = tenant_id, c = campaign_id, to](soci::session& sql) {
    return move_to(sql, t, c, to);
  });
}

caf::result<bool> campaign_state::add_lead(lead_row& lead) {
  return write(self,
               [t = tenant_id, c = campaign_id,
                row = std::move(lead.lead)](soci::session& sql) -> domain::result<bool> {
                 if (storage::insert_leads(sql, t, c, std::span{&row, 1}).inserted == 0)
                   return domain::error{domain::errc::conflict,
                                        "A lead with this phone number already exists in the "
                                        "campaign"}
                       .with_detail(std::vector<std::string>{"phone_number: Duplicate lead."});
                 return true;
               });
}

caf::result<lead_outcomes> campaign_state::update_leads(lead_updates& req) {
  auto rp = self->make_response_promise<lead_outcomes>();
  if (auto open = open_updates.lock();
      open && writes.last_queued(open->ticket) && open->fits(req.items.size())) {
    open->add(std::move(req.items), rp);
    return rp;
  }
  auto batch = std::make_shared<lead_update_batch>();
  batch->add(std::move(req.items), rp);
  batch->ticket = write_then(
      self,
      [t = tenant_id, c = campaign_id, batch](soci::session& sql) {
        return lead_outcomes{storage::update_leads(sql, t, c, batch->items())};
      },
      [batch](const lead_outcomes& out) { batch->deliver(out); },
      [batch](const caf::error& e) { batch->fail(e); });
  if (config->settings.max_batch > 1)
    open_updates = batch;
  return rp;
}

caf::result<lead_outcomes> campaign_state::remove_leads(lead_removals& req) {
  auto rp = self->make_response_promise<lead_outcomes>();
  const auto wait = config->max_write_wait;
  const auto due = wait.count() > 0 ? lead_removal_run::clock::now() + wait
                                    : lead_removal_run::clock::time_point::max();
  remove_next_chunk(std::make_shared<lead_removal_run>(std::move(req.items), rp, due));
  return rp;
}

void campaign_state::remove_next_chunk(std::shared_ptr<lead_removal_run> run) {
  write_then(
      self,
      [t = tenant_id, c = campaign_id, chunk = run->next_chunk()](soci::session& sql) {
        return lead_outcomes{storage::remove_leads(sql, t, c, chunk)};
      },
      [this, run](const lead_outcomes& out) {
        if (!run->add(out))
          run->deliver();
        else if (run->in_time())
          remove_next_chunk(run);
        else
          run->stop();
      },
      [run](const caf::error& e) { run->fail(e); });
}

caf::result<int64_t> campaign_state::store_import(domain::bulk_import& bulk) {
  auto rp = self->make_response_promise<int64_t>();
  auto rows = std::make_shared<const domain::bulk_import>(std::move(bulk));
  auto start_parallel = [me = caf::actor_cast<campaign_actor>(self),
                         rows](const storage::parallel_chunk& at) {
    caf::anon_send(me, import_atom::value, parallel_chunk_start{rows, at});
  };
  write_then(
      self,
      [t = tenant_id, c = campaign_id, chunk = config->settings.import_chunk_size,
       node = config->node_id, rows, start_parallel](soci::session& sql) {
        auto stored = storage::insert_import_job(sql, t, c, *rows, chunk, node, start_parallel);
        if (!stored.rows_left)
          announce_import_end(sql, t, c, stored.job_id);
        return stored;
      },
      [this, rp](const storage::stored_import& stored) mutable {
        if (stored.all_in_parallel_chunks && parallel_chunks.count(stored.job_id) > 0) {
          held_answers.emplace(stored.job_id, rp);
          self->delayed_send(self, config->max_write_wait / 10, import_atom::value,
                             done_atom::value, stored.job_id);
        } else {
          rp.deliver(stored.job_id);
        }
        if (stored.rows_left)
          resume_import(stored.job_id);
      },
      [rp](const caf::error& e) mutable { rp.deliver(e); });
  return rp;
}

void campaign_state::resume_import(int64_t job_id) {
  if (importing.insert(job_id).second)
    import_next_chunk(job_id);
}

void campaign_state::insert_parallel_chunk(parallel_chunk_start& start) {
  const auto job_id = start.at.job_id;
  // The ordinary import already works through the job: it takes the chunk.
  if (importing.count(job_id) > 0 && parallel_chunks.count(job_id) == 0)
    return;
  importing.insert(job_id);
  ++parallel_chunks[job_id];
  // Once the last of the job's parallel chunks is over, the ordinary import
  // goes on with whatever is left.
  auto after = [this, job_id] {
    if (--parallel_chunks[job_id] > 0)
      return;
    parallel_chunks.erase(job_id);
    importing.erase(job_id);
    answer_import(job_id);
    resume_import(job_id);
  };
  ask_database(
      self, config->pool->dispatcher(), config->pool->timeout(),
      static_cast<std::uint64_t>(tenant_id),
      [t = tenant_id, c = campaign_id, start = std::move(start)](soci::session& sql) {
        soci::transaction tx{sql};
        auto left = storage::import_parallel_chunk(sql, t, c, *start.bulk, start.at,
                                                   parallel_chunk_lock_wait);
        if (!left)
          return false;
        if (!*left)
          announce_import_end(sql, t, c, start.at.job_id);
        tx.commit();
        return true;
      },
      [after](bool) { after(); },
      [after, job_id](const caf::error& e) {
        spdlog::info("import {}: a parallel chunk goes the ordinary way ({})", job_id,
                     to_string(e));
        after();
      });
}

void campaign_state::answer_import(int64_t job_id) {
  auto it = held_answers.find(job_id);
  if (it == held_answers.end())
    return;
  it->second.deliver(job_id);
  held_answers.erase(it);
}

void campaign_state::import_next_chunk(int64_t job_id) {
  write_then(
      self, [cfg = config, job_id](soci::session& sql) { return import_chunk(sql, *cfg, job_id); },
      [this, job_id](bool more) {
        if (more)
          import_next_chunk(job_id);
        else
          importing.erase(job_id);
      },
      [this, job_id](const caf::error& e) {
        importing.erase(job_id);
        if (to_domain_error(e).code == domain::errc::internal) {
          spdlog::error("import {} failed: {}", job_id, to_string(e));
          write_then(
              self,
              [t = tenant_id, c = campaign_id, job_id](soci::session& sql) {
                fail_import(sql, t, c, job_id);
                return true;
              },
              [](bool) {}, [this, job_id](const caf::error&) { retry_import(job_id); });
          return;
        }
        spdlog::warn("import {} paused after an error ({}); retrying", job_id, to_string(e));
        retry_import(job_id);
      });
}

void campaign_state::retry_import(int64_t job_id) {
  self->delayed_send(self, std::chrono::seconds(5), import_atom::value, job_id);
}

caf::result<domain::web_widget> campaign_state::create_widget(widget_create& req) {
  return write(self,
               [t = tenant_id,
                req = std::move(req)](soci::session& sql) -> domain::result<domain::web_widget> {
                 auto widget = storage::insert_web_widget(sql, t, req.widget, req.config_json);
                 if (!widget)
                   return domain::error{domain::errc::conflict,
                                        "A web widget already exists for this campaign"}
                       .with_errors({"Duplicate web widget"});
                 return std::move(*widget);
               });
}

caf::result<int64_t> campaign_state::dial(const dial_request& req) {
  auto rp = self->make_response_promise<int64_t>();
  write_then(
      self,
      [cfg = config, t = tenant_id, c = campaign_id, req](soci::session& sql) {
        return dial_pass(sql, *cfg, t, c, req.now);
      },
      [this, rp](const std::vector<call_placement>& calls) mutable {
        place_calls(calls);
        rp.deliver(static_cast<int64_t>(calls.size()));
      },
      [rp](const caf::error& e) mutable { rp.deliver(e); });
  return rp;
}

caf::result<bool> campaign_state::apply_call_report(call_update& update) {
  auto id = update.call_id;
  const bool refused = update.what == call_update::kind::refused;
  auto again = update;
  auto rp = self->make_response_promise<bool>();
  write_then(
      self,
      [t = tenant_id, c = campaign_id, update = std::move(update)](soci::session& sql) {
        return apply_call_update(sql, t, c, update, domain::now());
      },
      [this, id, refused, rp](bool ended) mutable {
        // Counted once its write committed (a retried write is not counted twice).
        if (ended && refused)
          ++counters().calls_refused;
        if (ended)
          open_calls.erase(id);
        rp.deliver(ended);
      },
      [this, id, again = std::move(again), rp](const caf::error& e) mutable {
        // A provider retries an unacknowledged callback; a report made here
        // is sent again (applying one twice changes nothing), and one never
        // applied is ended by the sweep as lost (lost_calls).
        spdlog::warn("call {}: report not applied ({})", id, to_string(e));
        if (again.resends_left > 0) {
          --again.resends_left;
          caf::delayed_anon_send(caf::actor_cast<campaign_actor>(self), std::chrono::seconds(1),
                                 call_atom::value, std::move(again));
        }
        rp.deliver(e);
      });
  return rp;
}

void campaign_state::idle_tick() {
  idle.tick(self, writes.busy() || !open_calls.empty() || !held_answers.empty(), registry,
            campaign_atom::value, tenant_id, campaign_id);
}

// BEGIN and the lock go in one round trip (storage::begin_with), so what the
// actor serialises on one node is serialised across nodes too. No row: the
// tenant has no such campaign, every write of the batch is answered 404
// unrun, and the actor retires.
void campaign_state::lock_row_in_each_batch() {
  writes.set_prologue(
      [t = tenant_id, c = campaign_id](soci::session& sql) -> std::optional<domain::error> {
        if (!storage::begin_locking_campaign(sql, t, c))
          return domain::campaign_not_found();
        return std::nullopt;
      });
  writes.set_on_refused([this] { retire_if_gone(); });
}

void campaign_state::retire_if_gone() {
  if (!writes.busy() && open_calls.empty() && importing.empty())
    idle.retire(self, registry, campaign_atom::value, tenant_id, campaign_id);
}

void campaign_state::place_calls(const std::vector<call_placement>& calls) {
  auto me = caf::actor_cast<campaign_actor>(self);
  for (const auto& call : calls) {
    open_calls.insert(call.call_id);
    config->gateway->place(call, me);
  }
}

} // namespace vcs::actors
