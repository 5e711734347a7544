#pragma once

#include "http/work/fair_queue.hpp"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

namespace vcs::http {

// This node's request figures in Prometheus text format: counts per route
// and status, latency histograms per route, refusals by cause, and the
// request workers' load and queue wait per listener. Shared by every
// request worker and the I/O threads.
class metrics {
public:
  // What the binary is (vcs_build_info); set once at start-up.
  void set_build(std::string version, std::string commit);
  // Where a listener's worker load is read at each scrape; set once at
  // start-up.
  void watch_workers(listener_kind listener, std::function<worker_load()> load);

  void record(std::string_view route, unsigned status, std::chrono::nanoseconds latency);
  // A request answered 4xx/5xx before (or instead of) its work, and why
  // (causes are listed in docs/ops/README.md).
  void refused(unsigned status, std::string_view cause);
  // How long a request waited for a worker of its listener.
  void queue_wait(listener_kind listener, std::chrono::nanoseconds waited);

  std::string render() const;

private:
  static constexpr std::array<double, 14> bounds{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                 0.1,    0.25,  0.5,    1.0,   2.5,  5.0,   10.0};
  struct histogram {
    std::array<uint64_t, bounds.size()> buckets{};
    uint64_t count = 0;
    double sum = 0;
    void add(double seconds);
  };
  static void render_histogram(std::string& out, std::string_view name, std::string_view labels,
                               const histogram& h);

  mutable std::mutex mtx_;
  std::string version_ = "unknown";
  std::string commit_ = "unknown";
  std::map<std::pair<std::string, unsigned>, uint64_t, std::less<>> counts_;
  std::map<std::string, histogram, std::less<>> latencies_;
  std::map<std::pair<unsigned, std::string>, uint64_t, std::less<>> refused_;
  std::array<histogram, 2> queue_waits_;
  std::array<std::function<worker_load()>, 2> worker_loads_;
};

} // namespace vcs::http
