#include "http/metrics/work_metrics.hpp"

#include "actors/work_counters.hpp"
#include "http/metrics/prometheus_text.hpp"
#include "storage/database.hpp"

#include <fmt/format.h>

namespace vcs::http {

std::string render_work_metrics(const actors::db_pool::load_figures& db) {
  const auto& w = actors::counters();
  const auto& s = storage::session_stats();
  std::string out;
  prometheus_single(out, "vcs_db_workers", "gauge", "Database workers of the pool.", db.workers);
  prometheus_single(out, "vcs_db_workers_busy", "gauge", "Database workers running a job.",
                    db.busy);
  prometheus_single(out, "vcs_db_queue_depth", "gauge", "Database jobs waiting for a worker.",
                    db.waiting);
  prometheus_family(out, "vcs_db_queue_wait_seconds", "summary",
                    "Time database jobs waited for a worker (sum and count).");
  out += fmt::format("vcs_db_queue_wait_seconds_sum {}\nvcs_db_queue_wait_seconds_count {}\n",
                     db.waited_seconds, db.started);
  prometheus_single(out, "vcs_db_reconnects_total", "counter",
                    "Database sessions opened again after their connection was lost or left in a "
                    "transaction.",
                    s.reconnects.load());
  prometheus_single(out, "vcs_db_connect_failures_total", "counter",
                    "Attempts to connect to the database that failed.", s.connect_failures.load());
  prometheus_family(out, "vcs_webhook_deliveries_total", "counter",
                    "Webhook delivery attempts by outcome (this node).");
  out += fmt::format("vcs_webhook_deliveries_total{{outcome=\"delivered\"}} {}\n",
                     w.webhooks_delivered.load());
  out += fmt::format("vcs_webhook_deliveries_total{{outcome=\"failed\"}} {}\n",
                     w.webhooks_failed.load());
  out += fmt::format("vcs_webhook_deliveries_total{{outcome=\"skipped\"}} {}\n",
                     w.webhooks_skipped.load());
  prometheus_single(out, "vcs_dialer_calls_placed_total", "counter",
                    "Calls this node's dial passes handed to a provider.", w.calls_placed.load());
  prometheus_single(out, "vcs_dialer_calls_refused_total", "counter",
                    "Calls a provider refused (recorded as abandoned).", w.calls_refused.load());
  prometheus_single(out, "vcs_dialer_passes_failed_total", "counter",
                    "Dial passes of a campaign that failed.", w.dial_passes_failed.load());
  prometheus_family(out, "vcs_billing_sweeps_total", "counter",
                    "Billing sweeps this node ran, by outcome.");
  out += fmt::format("vcs_billing_sweeps_total{{outcome=\"done\"}} {}\n", w.billing_sweeps.load());
  out += fmt::format("vcs_billing_sweeps_total{{outcome=\"failed\"}} {}\n",
                     w.billing_sweeps_failed.load());
  return out;
}

} // namespace vcs::http
