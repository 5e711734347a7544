#include "http/metrics.hpp"

#include <fmt/format.h>

namespace vcs::http {

namespace {

// Route patterns contain no quotes or backslashes, but escape anyway: the
// text format would break on them.
std::string label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

} // namespace

void metrics::record(std::string_view route, unsigned status, std::chrono::nanoseconds latency) {
  double seconds = std::chrono::duration<double>(latency).count();
  std::lock_guard guard{mtx_};
  auto key = std::make_pair(std::string{route}, status);
  ++counts_[key];
  auto it = latencies_.find(route);
  if (it == latencies_.end())
    it = latencies_.emplace(std::string{route}, histogram{}).first;
  auto& h = it->second;
  for (std::size_t i = 0; i < bounds.size(); ++i)
    if (seconds <= bounds[i])
      ++h.buckets[i];
  ++h.count;
  h.sum += seconds;
}

std::string metrics::render() const {
  std::lock_guard guard{mtx_};
  std::string out;
  out += "# HELP vcs_http_requests_total HTTP requests by route and status.\n";
  out += "# TYPE vcs_http_requests_total counter\n";
  for (const auto& [key, n] : counts_)
    out += fmt::format("vcs_http_requests_total{{route=\"{}\",status=\"{}\"}} {}\n",
                       label(key.first), key.second, n);
  out += "# HELP vcs_http_request_duration_seconds HTTP request latency by route.\n";
  out += "# TYPE vcs_http_request_duration_seconds histogram\n";
  for (const auto& [route, h] : latencies_) {
    auto r = label(route);
    for (std::size_t i = 0; i < bounds.size(); ++i)
      out += fmt::format("vcs_http_request_duration_seconds_bucket{{route=\"{}\",le=\"{}\"}} {}\n",
                         r, bounds[i], h.buckets[i]);
    out += fmt::format("vcs_http_request_duration_seconds_bucket{{route=\"{}\",le=\"+Inf\"}} {}\n",
                       r, h.count);
    out += fmt::format("vcs_http_request_duration_seconds_sum{{route=\"{}\"}} {}\n", r, h.sum);
    out += fmt::format("vcs_http_request_duration_seconds_count{{route=\"{}\"}} {}\n", r, h.count);
  }
  return out;
}

} // namespace vcs::http
