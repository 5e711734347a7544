#include "outbound/name_resolver.hpp"

#include "domain/fair_share.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <netdb.h>
#include <sys/socket.h>

namespace vcs::outbound {

namespace {

using clock = std::chrono::steady_clock;

// One caller's answer, given once: by the lookup or by the deadline, or
// never once the resolver is gone. What the caller's function holds (an
// exchange of the outbound client's event loop) is released then, by the
// thread that gave or dropped it: a detached lookup thread that outlives
// the resolver never destroys it after the event loop is gone.
struct pending {
  std::mutex mutex;
  name_resolver::done_fn done;
  std::atomic<bool> given{false};

  void give(name_resolver::answer a) {
    std::lock_guard lock{mutex};
    if (given.exchange(true) || !done)
      return;
    std::exchange(done, nullptr)(std::move(a));
  }
  void drop() {
    std::lock_guard lock{mutex};
    given = true;
    done = nullptr;
  }
};

struct lookup {
  std::string host;
  std::uint16_t port = 0;
  clock::time_point deadline;
  std::shared_ptr<pending> caller;
};

name_resolver::answer run_getaddrinfo(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_ADDRCONFIG;
  addrinfo* found = nullptr;
  const auto service = std::to_string(port);
  name_resolver::answer out;
  if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0) {
    out.error = std::string{"name lookup failed: "} + ::gai_strerror(rc);
    return out;
  }
  for (auto* a = found; a; a = a->ai_next) {
    if (a->ai_family == AF_INET) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(a->ai_addr);
      out.endpoints.emplace_back(net::ip::address_v4{ntohl(in->sin_addr.s_addr)}, port);
    } else if (a->ai_family == AF_INET6) {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(a->ai_addr);
      net::ip::address_v6::bytes_type bytes;
      std::copy(std::begin(in6->sin6_addr.s6_addr), std::end(in6->sin6_addr.s6_addr),
                bytes.begin());
      out.endpoints.emplace_back(net::ip::address_v6{bytes}, port);
    }
  }
  ::freeaddrinfo(found);
  if (out.endpoints.empty())
    out.error = "name lookup failed: no address";
  return out;
}

} // namespace

struct name_resolver::shared {
  explicit shared(name_resolver_settings s) : settings(s), share(s.per_tenant) {}

  name_resolver_settings settings;
  std::mutex mutex;
  std::condition_variable wake;
  domain::fair_share<lookup> share;
  // host:port -> until when, and why it failed.
  std::unordered_map<std::string, std::pair<clock::time_point, std::string>> failed;
  bool stopping = false;
  // Every caller not answered yet (and some answered ones, pruned as they
  // accumulate), dropped when the resolver goes.
  std::vector<std::weak_ptr<pending>> callers;
  // Pruned when it reaches this size, then twice what was left (at least
  // 1,024): a constant cost per lookup.
  std::size_t prune_at = 1024;

  // Under the mutex.
  void track(const std::shared_ptr<pending>& caller) {
    if (callers.size() >= prune_at) {
      std::erase_if(callers, [](const auto& c) {
        auto alive = c.lock();
        return !alive || alive->given.load();
      });
      prune_at = std::max<std::size_t>(1024, 2 * callers.size());
    }
    callers.push_back(caller);
  }

  static std::string key(const std::string& host, std::uint16_t port) {
    return host + ":" + std::to_string(port);
  }

  // Under the mutex.
  void remember_failure(const std::string& host, std::uint16_t port, const std::string& why) {
    if (failed.size() >= settings.remembered) {
      const auto now = clock::now();
      std::erase_if(failed, [now](const auto& entry) { return entry.second.first <= now; });
      if (failed.size() >= settings.remembered)
        failed.clear();
    }
    failed[key(host, port)] = {clock::now() + settings.failure_ttl, why};
  }

  // Under the mutex.
  std::optional<std::string> remembered_failure(const std::string& host, std::uint16_t port) {
    const auto it = failed.find(key(host, port));
    if (it == failed.end())
      return std::nullopt;
    if (it->second.first <= clock::now()) {
      failed.erase(it);
      return std::nullopt;
    }
    return it->second.second;
  }

  void work() {
    std::unique_lock lock{mutex};
    for (;;) {
      std::optional<std::pair<std::uint64_t, lookup>> next;
      wake.wait(lock, [&] { return stopping || (next = share.next()).has_value(); });
      if (stopping)
        return;
      auto& [tenant, job] = *next;
      // Answered already (its deadline passed while it waited): skip it.
      if (!job.caller->given.load() && clock::now() < job.deadline) {
        lock.unlock();
        auto found = run_getaddrinfo(job.host, job.port);
        lock.lock();
        if (found.error.empty())
          failed.erase(key(job.host, job.port)); // a slow name that answered after all
        else
          remember_failure(job.host, job.port, found.error);
        share.finished(tenant);
        wake.notify_one();
        lock.unlock();
        job.caller->give(std::move(found));
        lock.lock();
      } else {
        share.finished(tenant);
        wake.notify_one();
      }
    }
  }
};

name_resolver::name_resolver(net::io_context& io, name_resolver_settings settings)
    : shared_(std::make_shared<shared>(settings)), io_(io) {
  for (std::size_t i = 0; i < std::max<std::size_t>(1, settings.threads); ++i)
    // Detached: a thread inside getaddrinfo cannot be interrupted, and a
    // shutdown must not wait for a slow name server. It holds the shared
    // state until it returns.
    std::thread([s = shared_] { s->work(); }).detach();
}

name_resolver::~name_resolver() {
  std::vector<std::weak_ptr<pending>> callers;
  {
    std::lock_guard lock{shared_->mutex};
    shared_->stopping = true;
    shared_->wake.notify_all();
    callers.swap(shared_->callers);
  }
  // Waits for an answer being given right now, so none is given after.
  for (const auto& c : callers)
    if (auto alive = c.lock())
      alive->drop();
}

void name_resolver::resolve(std::int64_t tenant, std::string host, std::uint16_t port,
                            clock::time_point deadline, done_fn done) {
  auto caller = std::make_shared<pending>();
  caller->done = std::move(done);
  const auto answer_soon = [this, caller](std::string why) {
    net::post(io_, [caller, why = std::move(why)] { caller->give({{}, why}); });
  };
  {
    std::lock_guard lock{shared_->mutex};
    if (auto why = shared_->remembered_failure(host, port))
      return answer_soon(*why + " (remembered)");
    const auto owner = static_cast<std::uint64_t>(tenant);
    if (shared_->share.waiting(owner) >= shared_->settings.per_tenant_waiting)
      return answer_soon("too many name lookups of this tenant waiting");
    shared_->track(caller);
    shared_->share.push(owner, lookup{host, port, deadline, caller});
    shared_->wake.notify_one();
  }
  auto timer = std::make_shared<net::steady_timer>(io_, deadline);
  timer->async_wait([timer, caller, s = std::weak_ptr<shared>{shared_}, host = std::move(host),
                     port](beast::error_code) {
    if (caller->given.load())
      return;
    if (auto alive = s.lock()) {
      std::lock_guard lock{alive->mutex};
      alive->remember_failure(host, port, "name lookup timed out");
    }
    caller->give({{}, "name lookup timed out"});
  });
}

} // namespace vcs::outbound
