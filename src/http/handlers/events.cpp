// GET /api/v2/events: the tenant's events in commit order, after a cursor,
// for integrators that cannot receive webhooks. The same events as the
// webhooks, whether or not a webhook_url is set.

#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/request_error.hpp"
#include "storage/event_repository.hpp"

#include <charconv>

namespace vcs::http::handlers {

namespace {

// "<txid>-<id>": what a reader hands back to go on from an event.
std::string cursor_text(const storage::event_cursor& c) {
  return std::to_string(c.txid) + "-" + std::to_string(c.id);
}

std::optional<storage::event_cursor> parse_cursor(std::string_view text) {
  const auto dash = text.find('-');
  if (dash == std::string_view::npos)
    return std::nullopt;
  storage::event_cursor c;
  const auto txid = text.substr(0, dash), id = text.substr(dash + 1);
  auto read = [](std::string_view digits, auto& out) {
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return !digits.empty() && ec == std::errc{} && end == digits.data() + digits.size();
  };
  if (!read(txid, c.txid) || !read(id, c.id) || c.id < 0)
    return std::nullopt;
  return c;
}

class list_events_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    const auto limit = value_or_throw(limit_param(*ex));
    storage::event_cursor after;
    if (auto given = ex->target.param("after")) {
      auto parsed = parse_cursor(*given);
      if (!parsed)
        return ex->fail(domain::error{domain::errc::bad_request, "Invalid cursor"}.with_errors(
            {"after must be a next_cursor this feed answered"}));
      after = *parsed;
    }
    const auto events = storage::read_events(ctx.db(), ex->principal->tenant_id, after,
                                             ex->principal->scope.campaigns, limit);
    json_out out;
    out.w().StartObject();
    out.key("data");
    out.w().StartArray();
    for (const auto& e : events) {
      out.w().StartObject();
      out.field("id", e.event_id);
      out.field("type", e.event_type);
      out.field("campaign_id", e.campaign_id ? std::optional<std::string>{domain::encode_global_id(
                                                   domain::entity::campaign, *e.campaign_id)}
                                             : std::nullopt);
      out.field("created_at", domain::format_utc(e.created_at));
      out.field("cursor", cursor_text(e.at));
      out.key("payload");
      out.w().RawValue(e.payload.data(), e.payload.size(), rapidjson::kObjectType);
      out.w().EndObject();
    }
    out.w().EndArray();
    out.field("next_cursor", cursor_text(events.empty() ? after : events.back().at));
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

} // namespace

std::shared_ptr<handler> list_events() {
  return std::make_shared<list_events_handler>();
}

} // namespace vcs::http::handlers
