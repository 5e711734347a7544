#include "actors/campaign_actor.hpp"

#include <caf/event_based_actor.hpp>

namespace vcs::actors {

campaign_actor::behavior_type campaign(campaign_state::pointer self, int64_t tenant_id,
                                       int64_t campaign_id, entity_config_ptr config,
                                       registry_actor registry) {
  self->state.self = self;
  self->state.tenant_id = tenant_id;
  self->state.campaign_id = campaign_id;
  self->state.start(self, std::move(config), std::move(registry), tenant_id);
  self->state.lock_row_in_each_batch();
  return {
      // Applies a partial update; create-only fields must keep their values.
      [self](update_atom, campaign_update& r) { return self->state.update_campaign(r); },
      // Moves the campaign to a status, unless a transition rule forbids it.
      [self](update_atom, status_atom, domain::campaign_status to) {
        return self->state.change_status(to);
      },
      // Adds one lead; a phone number already in the campaign is a conflict.
      [self](create_atom, lead_row& lead) { return self->state.add_lead(lead); },
      // Applies update items (merges in SQL); one outcome per item.
      [self](update_atom, lead_updates& r) { return self->state.update_leads(r); },
      // Removes leads for good; one outcome per item.
      [self](delete_atom, lead_removals& r) { return self->state.remove_leads(r); },
      // Stores a bulk add durably, answers its job id, then imports it.
      [self](import_atom, domain::bulk_import& b) { return self->state.store_import(b); },
      // Imports (or resumes) a stored job chunk by chunk.
      [self](import_atom, int64_t job_id) { self->state.resume_import(job_id); },
      // Inserts one of a bulk add's first chunks on a connection of its own
      // while the job's transaction is still open.
      [self](import_atom, parallel_chunk_start& s) { self->state.insert_parallel_chunk(s); },
      // Answers a bulk add held for its parallel chunks, if it still waits.
      [self](import_atom, done_atom, int64_t job_id) { self->state.answer_import(job_id); },
      // Creates the campaign's web widget; a second one is a conflict.
      [self](create_atom, widget_create& r) { return self->state.create_widget(r); },
      // Runs one dial pass as of a time; answers the calls it placed.
      [self](dial_atom, dial_request r) { return self->state.dial(r); },
      // A provider's report on one of the campaign's calls; answers once it
      // committed (true: the call ended).
      [self](call_atom, call_update& u) { return self->state.apply_call_report(u); },
      // Timer tick: retires the actor when it has been idle long enough.
      [self](idle_atom) { self->state.idle_tick(); },
  };
}

} // namespace vcs::actors
