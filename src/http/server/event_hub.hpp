#pragma once

// The server-sent-event streams of this node (GET /api/v2/events/stream).
// Each follows its tenant's event feed (storage/event_repository.hpp) from
// its cursor. One thread reads the feed for every stream every `interval`,
// streams of one tenant at the same place sharing the read, and hands each
// its new events as text frames, each batch followed by a campaign.progress
// frame for every campaign its events name (without an id: a progress frame
// is a snapshot, not a place in the feed). A stream whose client reads
// slowly is skipped until it has caught up: its cursor waits, so nothing is
// lost. Thread-safe.

#include "storage/campaign_progress.hpp"
#include "storage/event_repository.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace soci {
class session;
}

namespace vcs::http {

class event_hub {
public:
  // Where a stream's frames go: its connection.
  class sink {
  public:
    virtual ~sink() = default;
    // Takes frames to send; false when the connection has ended.
    virtual bool deliver(std::string frames) = 0;
    // Bytes given to it and not sent yet.
    virtual std::size_t backlog() const = 0;
    // Its credential no longer holds: the stream ends.
    virtual void end() = 0;
  };

  // What a stream was opened with, checked again every few seconds: a key
  // disabled or deleted, a session ended, a role that lost webhooks:read or
  // a tenant deactivated ends the stream.
  struct credential {
    bool session = false;
    // The key's or the session token's hash.
    std::string hash;
  };

  // `per_tenant`: the most streams one tenant holds on this node;
  // `lifetime`: how long a stream lasts at most (then it ends, and an
  // EventSource reconnects from its Last-Event-ID, its credential and its
  // places taken afresh).
  event_hub(std::string database_url, std::size_t per_tenant, std::chrono::milliseconds interval,
            std::chrono::milliseconds lifetime);
  ~event_hub();
  event_hub(const event_hub&) = delete;
  event_hub& operator=(const event_hub&) = delete;

  std::size_t per_tenant() const noexcept { return per_tenant_; }
  // The most streams one member or client user session holds on this node,
  // so a page that opens streams through a session's cookie cannot take
  // every place of its tenant.
  static constexpr std::size_t per_session = 3;

  // Why admit() found no place.
  enum class full { tenant, session };
  // A place for one more stream of the tenant (and of `session`, the
  // session token's hash, when it is opened by one), held until it is
  // released; or why there is none.
  std::variant<std::shared_ptr<void>, full> admit(int64_t tenant_id,
                                                  std::optional<std::string> session);
  // Follows the tenant's feed after `after` (only `campaigns` when given)
  // into `to`, until it ends.
  void follow(int64_t tenant_id, storage::event_cursor after,
              std::optional<std::vector<int64_t>> campaigns, credential by, std::weak_ptr<sink> to);

private:
  struct stream {
    int64_t tenant_id;
    storage::event_cursor at;
    std::optional<std::vector<int64_t>> campaigns;
    credential by;
    std::weak_ptr<sink> to;
    // When its credential was last read (at once for a new stream), and
    // whether it allows campaigns:read, which progress frames need.
    std::chrono::steady_clock::time_point checked{};
    bool progress = false;
    // When it ends however current its credential (lifetime_).
    std::chrono::steady_clock::time_point ends{};
  };
  // Reads the stream's credential again: false when it no longer lets it
  // read the feed.
  static bool check(soci::session& sql, stream& s);

  void run();
  // One look at the feed for every stream that can take more.
  void poll(soci::session& sql);

  std::string database_url_;
  std::size_t per_tenant_;
  std::chrono::milliseconds interval_;
  std::chrono::milliseconds lifetime_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  // Set by follow(): a new stream is read at once, not after the interval.
  bool fresh_ = false;
  // Streams held per tenant, shared with the places admit() gave out (they
  // may outlive the hub).
  struct holdings {
    std::mutex mutex;
    std::map<int64_t, std::size_t> held;
    std::map<std::string, std::size_t> by_session;
  };
  std::shared_ptr<holdings> holdings_ = std::make_shared<holdings>();
  std::vector<std::shared_ptr<stream>> streams_;
  std::thread thread_;
};

// One event as a server-sent-event frame: its cursor as the id, its type as
// the event name, and as the data the JSON object the pull feed lists.
std::string event_frame(const storage::feed_event& e);
// A campaign's progress as a frame without an id: the event name
// campaign.progress, the campaign read's data as the data.
std::string progress_frame(const storage::campaign_progress& p);

} // namespace vcs::http
