#include "http/server/event_hub.hpp"

#include "http/render/render.hpp"
#include "storage/api_key_repository.hpp"
#include "storage/campaign_progress.hpp"
#include "storage/database.hpp"
#include "storage/member_repository.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace vcs::http {

namespace {

// Events read for one place of the feed at a time.
constexpr int32_t batch = 100;
// A stream whose client has this much unsent is read for again only once it
// caught up.
constexpr std::size_t most_backlog = 256 * 1024;
// The most campaigns one batch sends progress for (each a campaign read):
// a batch naming more sends the first ones; pages read the rest anyway.
constexpr std::size_t most_progress = 20;
// How often a stream's credential is read again.
constexpr std::chrono::seconds recheck_every{5};

} // namespace

event_hub::event_hub(std::string database_url, std::size_t per_tenant,
                     std::chrono::milliseconds interval, std::chrono::milliseconds lifetime)
    : database_url_(std::move(database_url)), per_tenant_(per_tenant), interval_(interval),
      lifetime_(lifetime), thread_([this] { run(); }) {}

event_hub::~event_hub() {
  {
    std::lock_guard lock{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::variant<std::shared_ptr<void>, event_hub::full>
event_hub::admit(int64_t tenant_id, std::optional<std::string> session) {
  // Gives its place back when the stream's last holder lets go.
  struct place {
    std::shared_ptr<holdings> h;
    int64_t tenant_id;
    std::optional<std::string> session;
    ~place() {
      std::lock_guard lock{h->mutex};
      if (--h->held[tenant_id] == 0)
        h->held.erase(tenant_id);
      if (session && --h->by_session[*session] == 0)
        h->by_session.erase(*session);
    }
  };
  std::lock_guard lock{holdings_->mutex};
  auto& n = holdings_->held[tenant_id];
  if (n >= per_tenant_)
    return full::tenant;
  if (session && holdings_->by_session[*session] >= per_session)
    return full::session;
  ++n;
  if (session)
    ++holdings_->by_session[*session];
  // Made in place: a temporary place would give the place back at once.
  return std::shared_ptr<void>(new place{holdings_, tenant_id, std::move(session)});
}

void event_hub::follow(int64_t tenant_id, storage::event_cursor after,
                       std::optional<std::vector<int64_t>> campaigns, credential by,
                       std::weak_ptr<sink> to) {
  {
    std::lock_guard lock{mutex_};
    auto s = std::make_shared<stream>(
        stream{tenant_id, after, std::move(campaigns), std::move(by), std::move(to)});
    s->ends = std::chrono::steady_clock::now() + lifetime_;
    streams_.push_back(std::move(s));
    fresh_ = true;
  }
  wake_.notify_all();
}

void event_hub::run() {
  storage::lazy_session db{database_url_};
  std::unique_lock lock{mutex_};
  while (!stopping_) {
    fresh_ = false;
    if (!streams_.empty()) {
      lock.unlock();
      try {
        poll(db.get());
      } catch (const std::exception& e) {
        spdlog::warn("event streams: the feed could not be read: {}", e.what());
      }
      lock.lock();
    }
    wake_.wait_for(lock, interval_, [this] { return stopping_ || fresh_; });
  }
}

void event_hub::poll(soci::session& sql) {
  std::vector<std::shared_ptr<stream>> now;
  {
    std::lock_guard lock{mutex_};
    std::erase_if(streams_, [](const auto& s) { return s->to.expired(); });
    now = streams_;
  }
  const auto now_time = std::chrono::steady_clock::now();
  for (const auto& s : now)
    if (now_time >= s->ends) {
      if (auto to = s->to.lock())
        to->end();
    } else if (now_time - s->checked >= recheck_every) {
      s->checked = now_time;
      if (!check(sql, *s))
        if (auto to = s->to.lock())
          to->end();
    }
  // Streams of one tenant at one place share one read.
  using place = std::tuple<int64_t, uint64_t, int64_t, std::optional<std::vector<int64_t>>>;
  std::map<place, std::vector<std::shared_ptr<stream>>> places;
  for (const auto& s : now)
    if (auto to = s->to.lock(); to && to->backlog() < most_backlog)
      places[place{s->tenant_id, s->at.txid, s->at.id, s->campaigns}].push_back(s);
  for (const auto& [at, streams] : places) {
    const auto& first = *streams.front();
    const auto events =
        storage::read_events(sql, first.tenant_id, first.at, first.campaigns, batch);
    if (events.empty())
      continue;
    std::string frames;
    std::set<int64_t> campaigns;
    for (const auto& e : events) {
      frames += event_frame(e);
      if (e.campaign_id && campaigns.size() < most_progress)
        campaigns.insert(*e.campaign_id);
    }
    std::string progress;
    if (std::ranges::any_of(streams, [](const auto& s) { return s->progress; }))
      for (auto id : campaigns)
        if (auto p = storage::find_campaign_progress(sql, first.tenant_id, id))
          progress += progress_frame(*p);
    for (const auto& s : streams)
      if (auto to = s->to.lock(); to && to->deliver(s->progress ? frames + progress : frames))
        s->at = events.back().at;
  }
}

bool event_hub::check(soci::session& sql, stream& s) {
  std::optional<domain::principal> p;
  if (s.by.session) {
    if (auto found = storage::find_session(sql, s.by.hash, std::nullopt))
      p = found->principal;
  } else {
    p = storage::find_principal(sql, s.by.hash);
  }
  s.progress = p && p->scope.permissions.has(domain::permission::campaigns_read);
  return p && p->tenant_active && p->key_status == domain::api_key_status::active &&
         !p->key_expired && p->scope.permissions.has(domain::permission::webhooks_read);
}

std::string event_frame(const storage::feed_event& e) {
  json_out out;
  render_feed_event(out, e);
  // The JSON text has no line break, so it is one data line.
  return "id: " + storage::to_string(e.at) + "\nevent: " + e.event_type + "\ndata: " + out.take() +
         "\n\n";
}

std::string progress_frame(const storage::campaign_progress& p) {
  json_out out;
  render_campaign(out, p);
  return "event: campaign.progress\ndata: " + out.take() + "\n\n";
}

} // namespace vcs::http
