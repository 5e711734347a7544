#include "http/metrics/backlog_metrics.hpp"

#include "http/metrics/prometheus_text.hpp"

#include <fmt/format.h>

namespace vcs::http {
std::string render_backlog_metrics(const std::optional<storage::backlog>& b) {
  std::string out;
  prometheus_family(out, "vcs_backlog_read_success", "gauge",
                    "Whether this scrape read the cluster's queues from the database.");
  out += fmt::format("vcs_backlog_read_success {}\n", b ? 1 : 0);
  if (!b)
    return out;
  prometheus_family(out, "vcs_webhook_outbox_pending", "gauge",
                    "Webhook deliveries waiting (cluster-wide).");
  out += fmt::format("vcs_webhook_outbox_pending {}\n", b->outbox_pending);
  prometheus_family(
      out, "vcs_webhook_outbox_due_age_seconds", "gauge",
      "How long the longest-waiting due webhook delivery has been due (cluster-wide).");
  out += fmt::format("vcs_webhook_outbox_due_age_seconds {}\n", b->outbox_due_age_seconds);
  prometheus_family(out, "vcs_import_backlog_jobs", "gauge",
                    "Unfinished lead imports by status (cluster-wide).");
  out += fmt::format("vcs_import_backlog_jobs{{status=\"queued\"}} {}\n", b->imports_queued);
  out += fmt::format("vcs_import_backlog_jobs{{status=\"running\"}} {}\n", b->imports_running);
  prometheus_family(out, "vcs_import_backlog_leads", "gauge",
                    "Rows of unfinished imports still to insert "
                    "(cluster-wide).");
  out += fmt::format("vcs_import_backlog_leads {}\n", b->import_rows);
  prometheus_family(out, "vcs_dialer_calls_active", "gauge",
                    "Calls placed and not ended (cluster-wide).");
  out += fmt::format("vcs_dialer_calls_active {}\n", b->calls_active);
  return out;
}

} // namespace vcs::http
