#pragma once

// What a campaign actor is asked to do, beyond the domain values it takes.

#include "domain/bulk_import.hpp"
#include "domain/campaign.hpp"
#include "domain/lead_record.hpp"
#include "domain/web_widget.hpp"
#include "storage/import_job_repository.hpp"

#include <caf/allowed_unsafe_message_type.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vcs::actors {

// Create-only fields (type, provider_a_calling_entity, start_date, end_date)
// may be present; the campaign actor rejects them when they differ from the
// stored values.
struct campaign_update {
  domain::campaign_fields fields;
  std::string voice_provider_ref;
};

// One validated lead to add.
struct lead_row {
  domain::lead_input lead;
};

// One of a bulk add's first chunks, inserted on another connection while the
// job's transaction runs (storage::import_parallel_chunk); `bulk` is the
// add's rows.
struct parallel_chunk_start {
  std::shared_ptr<const domain::bulk_import> bulk;
  storage::parallel_chunk at;
};

struct lead_updates {
  std::vector<domain::lead_update> items;
};

struct lead_removals {
  std::vector<domain::lead_removal> items;
};

// One outcome per item, in order.
struct lead_outcomes {
  std::vector<domain::lead_outcome> items;
};

// A validated widget for the campaign; `config_json` is its resolved config.
struct widget_create {
  domain::web_widget widget;
  std::string config_json;
};

} // namespace vcs::actors

// These types never leave the process.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::campaign_update)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::lead_row)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::parallel_chunk_start)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::lead_updates)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::lead_removals)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::lead_outcomes)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::bulk_import)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::widget_create)
