#include "storage/event_repository.hpp"

#include "storage/prepared.hpp"

#include <charconv>
#include <string>

namespace vcs::storage {

namespace {

constexpr prepared_statement record_stmt{
    "vcs_record_event",
    "INSERT INTO events (tenant_id, campaign_id, event_id, event_type, payload) "
    "VALUES ($1, $2, $3, $4, $5)"};

// The primary key (tenant_id, txid, id) reads the page in order. ORDER BY
// names the table's columns: a bare `txid` is the text column selected, whose
// order is neither the feed's ("10" < "9") nor the index's (every event
// read and sorted).
constexpr prepared_statement read_stmt{
    "vcs_read_events",
    "SELECT txid::text, id, event_id, event_type, campaign_id, payload, created_at FROM events "
    "WHERE tenant_id = $1 AND (txid, id) > ($2::text::xid8, $3) "
    "AND txid < pg_snapshot_xmin(pg_current_snapshot()) "
    "AND ($4::bigint[] IS NULL OR campaign_id = ANY($4)) "
    "ORDER BY events.txid, events.id LIMIT $5::int"};

constexpr prepared_statement end_stmt{"vcs_event_feed_end",
                                      "SELECT txid::text, id FROM events WHERE tenant_id = $1 "
                                      "AND txid < pg_snapshot_xmin(pg_current_snapshot()) "
                                      "ORDER BY events.txid DESC, events.id DESC LIMIT 1"};

} // namespace

std::string to_string(const event_cursor& c) {
  return std::to_string(c.txid) + "-" + std::to_string(c.id);
}

std::optional<event_cursor> parse_event_cursor(std::string_view text) {
  const auto dash = text.find('-');
  if (dash == std::string_view::npos)
    return std::nullopt;
  event_cursor c;
  auto read = [](std::string_view digits, auto& out) {
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return !digits.empty() && ec == std::errc{} && end == digits.data() + digits.size();
  };
  if (!read(text.substr(0, dash), c.txid) || !read(text.substr(dash + 1), c.id) || c.id < 0)
    return std::nullopt;
  return c;
}

event_cursor feed_end(soci::session& sql, int64_t tenant_id) {
  auto rows = execute(sql, end_stmt, {tenant_id});
  if (rows.size() == 0)
    return {};
  return {std::stoull(std::string{rows.text(0, 0)}), rows.int64(0, 1)};
}

void record_event(soci::session& sql, int64_t tenant_id, std::optional<int64_t> campaign_id,
                  const std::string& event_id, const std::string& event_type,
                  const std::string& payload) {
  execute(sql, record_stmt, {tenant_id, campaign_id, event_id, event_type, payload});
}

std::vector<feed_event> read_events(soci::session& sql, int64_t tenant_id, event_cursor after,
                                    const std::optional<std::vector<int64_t>>& campaigns,
                                    int32_t limit) {
  auto rows =
      execute(sql, read_stmt, {tenant_id, std::to_string(after.txid), after.id, campaigns, limit});
  std::vector<feed_event> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i) {
    feed_event e;
    e.at = {std::stoull(std::string{rows.text(i, 0)}), rows.int64(i, 1)};
    e.event_id = rows.text(i, 2);
    e.event_type = rows.text(i, 3);
    e.campaign_id = rows.opt_int64(i, 4);
    e.payload = rows.text(i, 5);
    e.created_at = rows.timestamp(i, 6);
    out.push_back(std::move(e));
  }
  return out;
}

} // namespace vcs::storage
