#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace soci {
class session;
}

namespace vcs::storage {

// The connection string with server-side limits for every statement and
// lock wait of its sessions (libpq `options`), as key=value pairs. A session
// past either limit fails its statement, so no request's database work
// outlives the request.
std::string with_session_limits(const std::string& url, std::chrono::milliseconds statement_timeout,
                                std::chrono::milliseconds lock_timeout);

// Opens a PostgreSQL session for a libpq connection string or URI, with the
// session settings every query relies on (UTC, ISO dates).
std::unique_ptr<soci::session> open_session(const std::string& url);

// One owner's session (a detached worker's), opened on first use and
// repaired when broken. A session in steady use is checked locally (libpq's
// connection status: no round trip, which SOCI's is_connected() costs on
// every call); one idle longer than `ping_after` is pinged first, since that
// is where a database restart or a dropped connection shows.
// Across every lazy_session of the process, for /metrics: connections
// opened again after one was lost or left mid-transaction, and attempts to
// connect that failed.
struct session_counters {
  std::atomic<std::uint64_t> reconnects{0};
  std::atomic<std::uint64_t> connect_failures{0};
};
session_counters& session_stats();

class lazy_session {
public:
  explicit lazy_session(std::string url,
                        std::chrono::milliseconds ping_after = std::chrono::seconds(5));
  ~lazy_session();
  lazy_session(const lazy_session&) = delete;
  lazy_session& operator=(const lazy_session&) = delete;

  // The usable session; throws (SQLSTATE 08001) when the database cannot be
  // reached.
  soci::session& get();
  // True when the session was opened and its connection is gone.
  bool broken() const;

private:
  std::string url_;
  std::chrono::milliseconds ping_after_;
  std::unique_ptr<soci::session> sql_;
  std::chrono::steady_clock::time_point last_use_{};
};

// True when the session's connection is gone (libpq's status, no round trip).
bool connection_lost(soci::session& sql);

// True when the session's connection is inside a transaction block (open,
// failed or unknown): no owner may start its work there.
bool mid_transaction(soci::session& sql);

// A cheap round trip (SELECT 1) for health checks.
void ping(soci::session& sql);

} // namespace vcs::storage
