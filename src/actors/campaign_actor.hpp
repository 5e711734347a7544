#pragma once

#include "actors/entity_state.hpp"
#include "actors/lead_removal_run.hpp"
#include "actors/lead_update_batch.hpp"
#include "actors/voice_gateway.hpp"

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace vcs::actors {

// One campaign's writes; each command runs in the next group commit
// (campaign_work.cpp), in the order of campaign_actor's interface.
struct campaign_state : entity_state {
  static inline const char* name = "campaign";

  using pointer = campaign_actor::stateful_pointer<campaign_state>;

  campaign_state() = default;

  // The actor this state belongs to (set first thing in its behaviour).
  pointer self = nullptr;

  caf::result<domain::campaign> update_campaign(campaign_update& req);
  caf::result<domain::campaign> change_status(domain::campaign_status to);
  caf::result<bool> add_lead(lead_row& lead);
  caf::result<lead_outcomes> update_leads(lead_updates& req);
  caf::result<lead_outcomes> remove_leads(lead_removals& req);
  caf::result<int64_t> store_import(domain::bulk_import& bulk);
  // Starts working through a job unless this actor already is.
  void resume_import(int64_t job_id);
  // Inserts one of a stored job's first chunks next to the job's
  // transaction, then works through the rest; the ordinary import takes the
  // chunk instead when this one cannot complete it.
  void insert_parallel_chunk(parallel_chunk_start& start);
  // Answers a held bulk add with its job id, once.
  void answer_import(int64_t job_id);
  caf::result<domain::web_widget> create_widget(widget_create& req);
  caf::result<int64_t> dial(const dial_request& req);
  caf::result<bool> apply_call_report(call_update& update);
  void idle_tick();
  // Begins every batch of writes with the campaign's row lock.
  void lock_row_in_each_batch();
  // After a write found no such campaign (an id a client made up): retires
  // now, so such ids do not keep actors alive.
  void retire_if_gone();

  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
  // Import jobs this actor is working through: one ordinary chunk in flight
  // each, or the parallel chunks' own transactions.
  std::set<int64_t> importing;
  // Parallel chunks in flight, by job.
  std::map<int64_t, int> parallel_chunks;
  // Answers to bulk adds whose every row is in their parallel chunks, held
  // until those are over (a tenth of max_write_wait at most), so that an
  // answered add of up to two chunks is already listed.
  std::map<int64_t, caf::typed_response_promise<int64_t>> held_answers;
  // Calls this actor placed that have not ended: it stays alive for their
  // reports.
  std::set<int64_t> open_calls;
  // The newest lead update write, which later updates join while it waits
  // for the write in flight (with batching on). Its job owns it: a batch
  // that has run is freed with its job.
  std::weak_ptr<lead_update_batch> open_updates;

private:
  // Queues the removal's next transaction; the one after it is queued once
  // it commits.
  void remove_next_chunk(std::shared_ptr<lead_removal_run> run);
  // Works through a job one chunk per group commit, so single-lead writes
  // queued meanwhile go into the same transactions instead of waiting.
  void import_next_chunk(int64_t job_id);
  // Takes the job up again after a pause (a lost connection, a timeout).
  void retry_import(int64_t job_id);
  // Hands each reserved call to the provider; its reports come back here.
  void place_calls(const std::vector<call_placement>& calls);
};

// Every transaction of the actor starts with the campaign's row lock.
campaign_actor::behavior_type campaign(campaign_state::pointer self, int64_t tenant_id,
                                       int64_t campaign_id, entity_config_ptr config,
                                       registry_actor registry);

} // namespace vcs::actors
