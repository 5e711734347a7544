#pragma once

#include <string>

namespace vcs::http {

// The standard process metrics of Prometheus's client libraries
// (process_cpu_seconds_total, process_resident_memory_bytes, ...), read
// from /proc/self at each scrape.
std::string render_process_metrics();

} // namespace vcs::http
