#include "storage/database.hpp"

#include "storage/prepared.hpp"

#include <libpq-fe.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

// SOCI 4.0 misreads libpq URIs, so every accepted form (URI or key=value)
// is parsed by libpq itself and handed to SOCI as quoted key=value pairs.
// `extra_options` is appended to libpq's `options` (server settings sent
// with the connection request, so they cost no round trip).
std::string to_conninfo(const std::string& url, std::string_view extra_options = {}) {
  char* message = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &message);
  if (options == nullptr) {
    std::string reason = message ? message : "unparsable connection string";
    PQfreemem(message);
    throw std::invalid_argument("invalid database URL: " + reason);
  }
  std::string out;
  auto append = [&out](std::string_view keyword, std::string_view value) {
    out += keyword;
    out += "='";
    for (char c : value) {
      if (c == '\'' || c == '\\')
        out += '\\';
      out += c;
    }
    out += "' ";
  };
  for (auto* o = options; o->keyword != nullptr; ++o) {
    std::string value = o->val ? o->val : "";
    if (std::string_view{o->keyword} == "options" && !extra_options.empty())
      value += value.empty() ? std::string{extra_options} : " " + std::string{extra_options};
    if (!value.empty())
      append(o->keyword, value);
  }
  PQconninfoFree(options);
  return out;
}

void configure(soci::session& sql) {
  sql << "SET TIME ZONE 'UTC'";
  sql << "SET DateStyle = 'ISO, YMD'";
  // Notices (e.g. "already exists, skipping") would go to stderr via libpq.
  sql << "SET client_min_messages = warning";
  // Every statement here is scoped by tenant and campaign ids and planned
  // well without knowing their values, while PostgreSQL's default keeps
  // re-planning prepared statements whose generic plan it estimates dearer
  // (the lead list: ~1 ms of planning per request, 60% of the database's
  // CPU under load).
  sql << "SET plan_cache_mode = force_generic_plan";
  // The statements read index ranges that a LIMIT or a capped count stops
  // early, which a generic plan's estimate does not know: at 10,000,000
  // leads it passed the costs at which PostgreSQL compiles the plan (20 ms
  // of JIT for a 0.05 ms page of leads) and starts parallel workers (5 ms
  // to start two, for a page of 20 campaigns).
  sql << "SET jit = off";
  sql << "SET max_parallel_workers_per_gather = 0";
}

} // namespace

std::string with_session_limits(const std::string& url, std::chrono::milliseconds statement_timeout,
                                std::chrono::milliseconds lock_timeout) {
  return to_conninfo(url, "-c statement_timeout=" + std::to_string(statement_timeout.count()) +
                              " -c lock_timeout=" + std::to_string(lock_timeout.count()));
}

std::unique_ptr<soci::session> open_session(const std::string& url) {
  auto sql = std::make_unique<soci::session>(soci::postgresql, to_conninfo(url));
  // A new connection has no prepared statements, whatever this thread's
  // list remembers of a closed one that had its address.
  forget_prepared_statements(*sql);
  configure(*sql);
  return sql;
}

lazy_session::lazy_session(std::string url, std::chrono::milliseconds ping_after)
    : url_(std::move(url)), ping_after_(ping_after) {}

lazy_session::~lazy_session() = default;

session_counters& session_stats() {
  static session_counters all;
  return all;
}

soci::session& lazy_session::get() {
  auto now = std::chrono::steady_clock::now();
  // SOCI reports a refused connection without an SQLSTATE; callers map
  // class 08 to 503.
  try {
    if (!sql_) {
      sql_ = open_session(url_);
    } else {
      // A connection left inside a transaction (a failure between BEGIN and
      // COMMIT, a rollback that could not be sent) answers "current
      // transaction is aborted" to the next owner: it is replaced instead.
      bool usable = !broken() && !mid_transaction(*sql_);
      if (usable && now - last_use_ > ping_after_)
        usable = sql_->is_connected();
      if (!usable) {
        ++session_stats().reconnects;
        forget_prepared_statements(*sql_);
        sql_->reconnect();
        configure(*sql_);
      }
    }
  } catch (const pg_error&) {
    ++session_stats().connect_failures;
    throw;
  } catch (const std::exception& e) {
    ++session_stats().connect_failures;
    throw pg_error("08001", e.what());
  }
  last_use_ = now;
  return *sql_;
}

bool lazy_session::broken() const {
  return sql_ && connection_lost(*sql_);
}

bool connection_lost(soci::session& sql) {
  auto* conn = raw_connection(sql);
  return !conn || PQstatus(conn) != CONNECTION_OK;
}

bool mid_transaction(soci::session& sql) {
  auto* conn = raw_connection(sql);
  return conn && PQtransactionStatus(conn) != PQTRANS_IDLE;
}

void ping(soci::session& sql) {
  int one = 0;
  sql << "SELECT 1", soci::into(one);
}

} // namespace vcs::storage
