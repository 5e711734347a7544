#pragma once

#include <memory>
#include <string>

namespace soci {
class session;
}

namespace vcs::storage {

// Opens a PostgreSQL session for a libpq connection string or URI, with the
// session settings every query relies on (UTC, ISO dates).
std::unique_ptr<soci::session> open_session(const std::string& url);

// True when the session's connection is usable; false after the server went
// away, so the caller reconnects before the next query.
bool is_healthy(soci::session& sql) noexcept;

// Reconnects a session whose connection broke; throws when it cannot.
void reconnect(soci::session& sql);

// A cheap round trip (SELECT 1) for health checks.
void ping(soci::session& sql);

} // namespace vcs::storage
