#include "http/backlog_metrics.hpp"

#include <fmt/format.h>

namespace vcs::http {
namespace {

void gauge(std::string& out, std::string_view name, std::string_view help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
}

} // namespace

std::string render_backlog_metrics(const std::optional<storage::backlog>& b) {
  std::string out;
  gauge(out, "vcs_backlog_read_success",
        "Whether this scrape read the cluster's queues from the database.");
  out += fmt::format("vcs_backlog_read_success {}\n", b ? 1 : 0);
  if (!b)
    return out;
  gauge(out, "vcs_webhook_outbox_pending", "Webhook deliveries waiting (cluster-wide).");
  out += fmt::format("vcs_webhook_outbox_pending {}\n", b->outbox_pending);
  gauge(out, "vcs_webhook_outbox_due_age_seconds",
        "How long the longest-waiting due webhook delivery has been due (cluster-wide).");
  out += fmt::format("vcs_webhook_outbox_due_age_seconds {}\n", b->outbox_due_age_seconds);
  gauge(out, "vcs_import_backlog_jobs", "Unfinished lead imports by status (cluster-wide).");
  out += fmt::format("vcs_import_backlog_jobs{{status=\"queued\"}} {}\n", b->imports_queued);
  out += fmt::format("vcs_import_backlog_jobs{{status=\"running\"}} {}\n", b->imports_running);
  gauge(out, "vcs_import_backlog_leads",
        "Rows of unfinished imports still to insert "
        "(cluster-wide).");
  out += fmt::format("vcs_import_backlog_leads {}\n", b->import_rows);
  gauge(out, "vcs_dialer_calls_active", "Calls placed and not ended (cluster-wide).");
  out += fmt::format("vcs_dialer_calls_active {}\n", b->calls_active);
  return out;
}

} // namespace vcs::http
