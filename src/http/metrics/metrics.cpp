#include "http/metrics/metrics.hpp"

#include "http/metrics/prometheus_text.hpp"

#include <fmt/format.h>

#include <optional>

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

constexpr std::array<std::string_view, 2> listener_names{"public", "operator"};

std::size_t index_of(listener_kind l) {
  return l == listener_kind::operator_api ? 1 : 0;
}

} // namespace

void metrics::histogram::add(double seconds) {
  for (std::size_t i = 0; i < bounds.size(); ++i)
    if (seconds <= bounds[i])
      ++buckets[i];
  ++count;
  sum += seconds;
}

void metrics::render_histogram(std::string& out, std::string_view name, std::string_view labels,
                               const histogram& h) {
  for (std::size_t i = 0; i < bounds.size(); ++i)
    out += fmt::format("{}_bucket{{{},le=\"{}\"}} {}\n", name, labels, bounds[i], h.buckets[i]);
  out += fmt::format("{}_bucket{{{},le=\"+Inf\"}} {}\n", name, labels, h.count);
  out += fmt::format("{}_sum{{{}}} {}\n", name, labels, h.sum);
  out += fmt::format("{}_count{{{}}} {}\n", name, labels, h.count);
}

void metrics::set_build(std::string version, std::string commit) {
  std::lock_guard guard{mtx_};
  version_ = std::move(version);
  commit_ = std::move(commit);
}

void metrics::watch_workers(listener_kind listener, std::function<worker_load()> load) {
  std::lock_guard guard{mtx_};
  worker_loads_[index_of(listener)] = std::move(load);
}

void metrics::record(std::string_view route, unsigned status, std::chrono::nanoseconds latency) {
  double seconds = std::chrono::duration<double>(latency).count();
  std::lock_guard guard{mtx_};
  auto key = std::make_pair(std::string{route}, status);
  ++counts_[key];
  auto it = latencies_.find(route);
  if (it == latencies_.end())
    it = latencies_.emplace(std::string{route}, histogram{}).first;
  it->second.add(seconds);
}

void metrics::refused(unsigned status, std::string_view cause) {
  std::lock_guard guard{mtx_};
  ++refused_[std::make_pair(status, std::string{cause})];
}

void metrics::queue_wait(listener_kind listener, std::chrono::nanoseconds waited) {
  std::lock_guard guard{mtx_};
  queue_waits_[index_of(listener)].add(std::chrono::duration<double>(waited).count());
}

std::string metrics::render() const {
  std::lock_guard guard{mtx_};
  std::string out;
  prometheus_family(out, "vcs_build_info", "gauge", "The running binary's version and commit.");
  out += fmt::format("vcs_build_info{{version=\"{}\",commit=\"{}\"}} 1\n", label(version_),
                     label(commit_));
  prometheus_family(out, "vcs_http_requests_total", "counter",
                    "HTTP requests by route and status.");
  for (const auto& [key, n] : counts_)
    out += fmt::format("vcs_http_requests_total{{route=\"{}\",status=\"{}\"}} {}\n",
                       label(key.first), key.second, n);
  prometheus_family(out, "vcs_http_request_duration_seconds", "histogram",
                    "HTTP request latency by route.");
  for (const auto& [route, h] : latencies_)
    render_histogram(out, "vcs_http_request_duration_seconds",
                     fmt::format("route=\"{}\"", label(route)), h);
  prometheus_family(
      out, "vcs_http_refused_total", "counter",
      "Requests and connections refused before or instead of their work, by status and "
      "cause.");
  for (const auto& [key, n] : refused_)
    out += fmt::format("vcs_http_refused_total{{status=\"{}\",cause=\"{}\"}} {}\n", key.first,
                       label(key.second), n);
  std::array<std::optional<worker_load>, 2> loads;
  for (std::size_t i = 0; i < loads.size(); ++i)
    if (worker_loads_[i])
      loads[i] = worker_loads_[i]();
  auto per_listener = [&](std::string_view name, std::string_view help, auto value) {
    prometheus_family(out, name, "gauge", help);
    for (std::size_t i = 0; i < loads.size(); ++i)
      if (loads[i])
        out += fmt::format("{}{{listener=\"{}\"}} {}\n", name, listener_names[i], value(*loads[i]));
  };
  per_listener("vcs_request_workers", "Request workers of each listener.",
               [](const worker_load& l) { return l.workers; });
  per_listener("vcs_request_workers_busy", "Request workers running a request.",
               [](const worker_load& l) { return l.busy; });
  per_listener("vcs_request_queue_depth", "Requests waiting for a request worker.",
               [](const worker_load& l) { return l.queued; });
  prometheus_family(out, "vcs_request_queue_wait_seconds", "histogram",
                    "Time from a request's arrival to the start of its work on a request worker.");
  for (std::size_t i = 0; i < queue_waits_.size(); ++i)
    render_histogram(out, "vcs_request_queue_wait_seconds",
                     fmt::format("listener=\"{}\"", listener_names[i]), queue_waits_[i]);
  return out;
}

} // namespace vcs::http
