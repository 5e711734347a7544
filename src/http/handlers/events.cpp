// The tenant's events in commit order, for integrators that cannot receive
// webhooks and for the console: GET /api/v2/events pages through them by a
// cursor; GET /api/v2/events/stream keeps a connection open and sends them
// as server-sent events as they commit. The same events as the webhooks,
// whether or not a webhook_url is set.

#include "domain/api_key.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/render/render.hpp"
#include "http/server/event_hub.hpp"
#include "storage/event_repository.hpp"

namespace vcs::http::handlers {

namespace {

// The cursor a reader gave (`after`, or a stream's `Last-Event-ID`), none
// when it gave none, or 400 `Invalid cursor`.
domain::result<std::optional<storage::event_cursor>> given_cursor(const exchange_ptr& ex) {
  // Held as strings: a view of the query's value would outlive it.
  const std::optional<std::string> given =
      ex->request.last_event_id ? ex->request.last_event_id : ex->target.param("after");
  if (!given)
    return std::optional<storage::event_cursor>{};
  auto parsed = storage::parse_event_cursor(*given);
  if (!parsed)
    return domain::error{domain::errc::bad_request, "Invalid cursor"}.with_errors(
        {"after must be a next_cursor this feed answered"});
  return parsed;
}

// GET /api/v2/events?after=&limit=
class list_events_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto limit = limit_param(*ex);
    if (!limit)
      return ex->fail(limit.err());
    auto cursor = given_cursor(ex);
    if (!cursor)
      return ex->fail(cursor.err());
    const auto after = cursor->value_or(storage::event_cursor{});
    const auto events = storage::read_events(ctx.db(), ex->principal->tenant_id, after,
                                             ex->principal->scope.campaigns, *limit);
    json_out out;
    out.w().StartObject();
    out.key("data");
    out.w().StartArray();
    for (const auto& e : events)
      render_feed_event(out, e);
    out.w().EndArray();
    out.field("next_cursor", storage::to_string(events.empty() ? after : events.back().at));
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// GET /api/v2/events/stream[?after=]: from `Last-Event-ID` (a reconnecting
// EventSource sends it) or `after`, else from now on.
class event_stream_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    const auto tenant = ex->principal->tenant_id;
    auto cursor = given_cursor(ex);
    if (!cursor)
      return ex->fail(cursor.err());
    const auto after = *cursor;
    // A cookie goes with a page of any site that opens this URL (a GET, so
    // no CSRF check ran): only this service's own pages may hold a stream.
    if (ex->signed_in && ex->request.fetch_site != "same-origin" &&
        !domain::constant_time_equal(ex->request.csrf_token, ex->signed_in->csrf_token))
      return ex->fail({domain::errc::forbidden,
                       "A signed-in event stream must be opened by this service's own pages "
                       "(Sec-Fetch-Site: same-origin, or the session's X-CSRF-Token)"});
    auto& hub = ex->svc.events;
    auto slot =
        hub->admit(tenant, ex->signed_in ? std::optional{ex->signed_in->token_hash} : std::nullopt);
    if (auto* full = std::get_if<event_hub::full>(&slot)) {
      ex->response_headers.emplace_back("Retry-After", "5");
      return ex->fail({domain::errc::too_many_requests,
                       *full == event_hub::full::tenant
                           ? "A tenant may hold at most " + std::to_string(hub->per_tenant()) +
                                 " event streams on one node; close one first"
                           : "A session may hold at most " +
                                 std::to_string(event_hub::per_session) +
                                 " event streams on one node; close one first"});
    }
    outbound_response r;
    r.content_type = "text/event-stream; charset=utf-8";
    r.stream = event_stream_start{hub,
                                  tenant,
                                  after.value_or(storage::feed_end(ctx.db(), tenant)),
                                  ex->principal->scope.campaigns,
                                  ex->signed_in ? ex->signed_in->token_hash : ex->key_hash,
                                  ex->signed_in.has_value(),
                                  std::get<std::shared_ptr<void>>(std::move(slot))};
    ex->respond(std::move(r));
  }
};

} // namespace

std::shared_ptr<handler> list_events() {
  return std::make_shared<list_events_handler>();
}

std::shared_ptr<handler> stream_events() {
  return std::make_shared<event_stream_handler>();
}

} // namespace vcs::http::handlers
