#include "http/metrics/process_metrics.hpp"

#include "http/metrics/prometheus_text.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace vcs::http {
namespace {

// /proc/self/stat's fields after the command name (which may hold spaces),
// numbered as in proc(5) from field 3 on.
std::vector<std::string> stat_fields() {
  std::ifstream in{"/proc/self/stat"};
  std::string line;
  std::getline(in, line);
  std::vector<std::string> fields;
  auto end = line.rfind(')');
  if (end == std::string::npos)
    return fields;
  std::istringstream rest{line.substr(end + 2)};
  for (std::string f; rest >> f;)
    fields.push_back(f);
  return fields;
}

// The boot time in seconds since the epoch (/proc/stat's btime).
long long boot_time() {
  std::ifstream in{"/proc/stat"};
  for (std::string key; in >> key;) {
    if (key == "btime") {
      long long t = 0;
      in >> t;
      return t;
    }
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

} // namespace

std::string render_process_metrics() {
  std::string out;
  const auto f = stat_fields();
  // proc(5): utime 14, stime 15, starttime 22, vsize 23, rss 24 (pages).
  if (f.size() >= 22) {
    const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
    const double page = static_cast<double>(::sysconf(_SC_PAGESIZE));
    prometheus_single(out, "process_cpu_seconds_total", "counter",
                      "User and system CPU time in seconds.",
                      (std::stod(f[14 - 3]) + std::stod(f[15 - 3])) / ticks);
    prometheus_single(out, "process_start_time_seconds", "gauge",
                      "Start time of the process since the Unix epoch in seconds.",
                      static_cast<double>(boot_time()) + std::stod(f[22 - 3]) / ticks);
    prometheus_single(out, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
                      std::stod(f[23 - 3]));
    prometheus_single(out, "process_resident_memory_bytes", "gauge",
                      "Resident memory size in bytes.", std::stod(f[24 - 3]) * page);
  }
  std::error_code ec;
  std::size_t fds = 0;
  for (auto it = std::filesystem::directory_iterator{"/proc/self/fd", ec};
       !ec && it != std::filesystem::directory_iterator{}; it.increment(ec))
    ++fds;
  prometheus_single(out, "process_open_fds", "gauge", "Number of open file descriptors.",
                    static_cast<double>(fds));
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0)
    prometheus_single(out, "process_max_fds", "gauge", "Maximum number of open file descriptors.",
                      static_cast<double>(limit.rlim_cur));
  return out;
}

} // namespace vcs::http
