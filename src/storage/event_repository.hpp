#pragma once

// The tenant's event feed (migration 0022): every event the service
// announces, recorded in the transaction that caused it, read in commit
// order by a cursor.

#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

void record_event(soci::session& sql, int64_t tenant_id, std::optional<int64_t> campaign_id,
                  const std::string& event_id, const std::string& event_type,
                  const std::string& payload);

// Where a reader of the feed is: after the event at (txid, id); the start
// is (0, 0).
struct event_cursor {
  uint64_t txid = 0;
  int64_t id = 0;
};

// "<txid>-<id>": what a reader hands back to go on from an event.
std::string to_string(const event_cursor& c);
// nullopt for text to_string did not make.
std::optional<event_cursor> parse_event_cursor(std::string_view text);

struct feed_event {
  event_cursor at;
  std::string event_id;
  std::string event_type;
  std::optional<int64_t> campaign_id;
  std::string payload; // JSON text
  domain::timestamp created_at{};
};

// Up to `limit` events after `after`, of `campaigns` only when given;
// events of transactions that may still be overtaken are left for later.
std::vector<feed_event> read_events(soci::session& sql, int64_t tenant_id, event_cursor after,
                                    const std::optional<std::vector<int64_t>>& campaigns,
                                    int32_t limit);

// The cursor after the tenant's last event a reader may be served now: a
// stream that starts there sees only what comes next.
event_cursor feed_end(soci::session& sql, int64_t tenant_id);

} // namespace vcs::storage
