#include "http/work/fair_queue.hpp"

#include "http/server/bearer_token.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>

namespace vcs::http {

std::uint64_t client_key(std::string_view authorization) {
  // The token as authentication reads it, so that spellings of one header
  // ("bearer K", "BEARER  K") are one client, as they are one key.
  const auto token = bearer_token(authorization);
  return std::hash<std::string_view>{}(token.empty() ? authorization : token);
}

std::uint64_t tenant_client_key(std::int64_t tenant_id) {
  // Apart from every token's hash: "tenant:" and "address:" cannot start a
  // bearer token the service issues.
  return std::hash<std::string>{}("tenant:" + std::to_string(tenant_id));
}

std::uint64_t address_client_key(std::string_view address) {
  return std::hash<std::string>{}("address:" + std::string{address});
}

fair_queue::fair_queue(fair_queue_settings settings) : settings_(settings) {
  settings_.workers = std::max<std::size_t>(1, settings_.workers);
  settings_.per_client_workers =
      std::clamp<std::size_t>(settings_.per_client_workers, 1, settings_.workers);
  idle_.reserve(settings_.workers);
  for (std::size_t i = settings_.workers; i-- > 0;)
    idle_.push_back(i);
}

fair_queue::admission fair_queue::push(http_call call) {
  const auto client = call.request.share;
  std::lock_guard lock{mutex_};
  admission out;
  if (settings_.max_pending != 0 && waiting_ + running_ >= settings_.max_pending) {
    out.outcome = verdict::overloaded;
    out.call = std::move(call);
    return out;
  }
  auto& c = clients_[client];
  if (settings_.per_client_pending != 0 &&
      c.queue.size() + c.running >= settings_.per_client_pending) {
    out.outcome = verdict::client_over_limit;
    out.call = std::move(call);
    return out;
  }
  // A client under its share takes an idle worker, unless others already
  // wait (they were first).
  if (!idle_.empty() && c.queue.empty() && c.running < settings_.per_client_workers &&
      waiting_ == 0) {
    out.outcome = verdict::run;
    out.worker = idle_.back();
    idle_.pop_back();
    ++c.running;
    ++running_;
    out.call = std::move(call);
    return out;
  }
  c.queue.push_back(std::move(call));
  ++waiting_;
  note_saturation_locked();
  if (!c.in_rotation) {
    c.in_rotation = true;
    rotation_.push_back(client);
  }
  // Workers may be idle while this client is at its share: only its own
  // finishing requests can start it.
  if (!idle_.empty()) {
    if (auto next = take_next_locked()) {
      out.outcome = verdict::run;
      out.worker = idle_.back();
      idle_.pop_back();
      out.call = std::move(next);
      return out;
    }
  }
  out.outcome = verdict::queued;
  return out;
}

std::optional<http_call> fair_queue::finished(std::size_t worker, std::uint64_t client) {
  std::lock_guard lock{mutex_};
  if (auto it = clients_.find(client); it != clients_.end()) {
    --it->second.running;
    --running_;
    if (it->second.running == 0 && it->second.queue.empty())
      clients_.erase(it);
  }
  auto next = take_next_locked();
  if (!next)
    idle_.push_back(worker);
  note_saturation_locked();
  return next;
}

void fair_queue::note_saturation_locked() {
  const bool saturated = idle_.empty() && waiting_ > 0;
  if (!saturated)
    saturated_since_.reset();
  else if (!saturated_since_)
    saturated_since_ = std::chrono::steady_clock::now();
}

// Round robin: the first client in turn that is under its share gives its
// oldest request and goes to the back of the line if it has more.
std::optional<http_call> fair_queue::take_next_locked() {
  for (std::size_t turns = rotation_.size(); turns > 0; --turns) {
    const auto client = rotation_.front();
    rotation_.pop_front();
    auto& c = clients_[client];
    if (c.running >= settings_.per_client_workers) {
      rotation_.push_back(client);
      continue;
    }
    auto call = std::move(c.queue.front());
    c.queue.pop_front();
    --waiting_;
    ++c.running;
    ++running_;
    if (c.queue.empty())
      c.in_rotation = false;
    else
      rotation_.push_back(client);
    return call;
  }
  return std::nullopt;
}

std::optional<std::chrono::steady_clock::time_point> fair_queue::saturated_since() const {
  std::lock_guard lock{mutex_};
  return saturated_since_;
}

worker_load fair_queue::load() const {
  std::lock_guard lock{mutex_};
  return {
      .workers = std::max<std::size_t>(1, settings_.workers), .busy = running_, .queued = waiting_};
}

void fair_queue::drop_queued() {
  std::lock_guard<std::mutex> guard{mutex_};
  clients_.clear();
  rotation_.clear();
  waiting_ = 0;
}

} // namespace vcs::http
