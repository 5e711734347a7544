#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

namespace vcs::http {

// Request counts per route and status, and latency histograms per route, in
// Prometheus text format. Shared by every request worker.
class metrics {
public:
  void record(std::string_view route, unsigned status, std::chrono::nanoseconds latency);
  std::string render() const;

private:
  static constexpr std::array<double, 14> bounds{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                 0.1,    0.25,  0.5,    1.0,   2.5,  5.0,   10.0};
  struct histogram {
    std::array<uint64_t, bounds.size()> buckets{};
    uint64_t count = 0;
    double sum = 0;
  };

  mutable std::mutex mtx_;
  std::map<std::pair<std::string, unsigned>, uint64_t, std::less<>> counts_;
  std::map<std::string, histogram, std::less<>> latencies_;
};

} // namespace vcs::http
