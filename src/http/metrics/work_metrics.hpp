#pragma once

#include "actors/db_pool.hpp"

#include <string>

namespace vcs::http {

// This node's database workers (`db`) and sessions, and what its background
// work did (actors::counters()): webhook attempts by outcome, calls placed
// and refused, dial passes and billing sweeps.
std::string render_work_metrics(const actors::db_pool::load_figures& db);

} // namespace vcs::http
