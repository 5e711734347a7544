#include "http/work_metrics.hpp"

#include "actors/work_counters.hpp"
#include "storage/database.hpp"

#include <fmt/format.h>

namespace vcs::http {
namespace {

void family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

template <class T>
void one(std::string& out, std::string_view name, std::string_view type, std::string_view help,
         T value) {
  family(out, name, type, help);
  out += fmt::format("{} {}\n", name, value);
}

} // namespace

std::string render_work_metrics(const actors::db_pool::load_figures& db) {
  const auto& w = actors::counters();
  const auto& s = storage::session_stats();
  std::string out;
  one(out, "vcs_db_workers", "gauge", "Database workers of the pool.", db.workers);
  one(out, "vcs_db_workers_busy", "gauge", "Database workers running a job.", db.busy);
  one(out, "vcs_db_queue_depth", "gauge", "Database jobs waiting for a worker.", db.waiting);
  family(out, "vcs_db_queue_wait_seconds", "summary",
         "Time database jobs waited for a worker (sum and count).");
  out += fmt::format("vcs_db_queue_wait_seconds_sum {}\nvcs_db_queue_wait_seconds_count {}\n",
                     db.waited_seconds, db.started);
  one(out, "vcs_db_reconnects_total", "counter",
      "Database sessions opened again after their connection was lost or left in a "
      "transaction.",
      s.reconnects.load());
  one(out, "vcs_db_connect_failures_total", "counter",
      "Attempts to connect to the database that failed.", s.connect_failures.load());
  family(out, "vcs_webhook_deliveries_total", "counter",
         "Webhook delivery attempts by outcome (this node).");
  out += fmt::format("vcs_webhook_deliveries_total{{outcome=\"delivered\"}} {}\n",
                     w.webhooks_delivered.load());
  out += fmt::format("vcs_webhook_deliveries_total{{outcome=\"failed\"}} {}\n",
                     w.webhooks_failed.load());
  out += fmt::format("vcs_webhook_deliveries_total{{outcome=\"skipped\"}} {}\n",
                     w.webhooks_skipped.load());
  one(out, "vcs_dialer_calls_placed_total", "counter",
      "Calls this node's dial passes handed to a provider.", w.calls_placed.load());
  one(out, "vcs_dialer_calls_refused_total", "counter",
      "Calls a provider refused (recorded as abandoned).", w.calls_refused.load());
  one(out, "vcs_dialer_passes_failed_total", "counter", "Dial passes of a campaign that failed.",
      w.dial_passes_failed.load());
  family(out, "vcs_billing_sweeps_total", "counter", "Billing sweeps this node ran, by outcome.");
  out += fmt::format("vcs_billing_sweeps_total{{outcome=\"done\"}} {}\n", w.billing_sweeps.load());
  out += fmt::format("vcs_billing_sweeps_total{{outcome=\"failed\"}} {}\n",
                     w.billing_sweeps_failed.load());
  return out;
}

} // namespace vcs::http
