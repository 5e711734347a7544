#include "storage/sign_in.hpp"

#include "domain/member.hpp"
#include "domain/sign_in_throttle.hpp"
#include "storage/prepared.hpp"

#include <algorithm>
#include <chrono>

namespace vcs::storage {

namespace {

constexpr prepared_statement address_failure_stmt{
    "vcs_address_failed_sign_in",
    "INSERT INTO sign_in_addresses AS a (address, failures, window_start) VALUES ($1, 1, now()) "
    "ON CONFLICT (address) DO UPDATE SET "
    "failures = CASE WHEN a.window_start > now() - make_interval(secs => $2) "
    "THEN a.failures + 1 ELSE 1 END, "
    "window_start = CASE WHEN a.window_start > now() - make_interval(secs => $2) "
    "THEN a.window_start ELSE now() END"};

constexpr prepared_statement address_cleanup_stmt{
    "vcs_address_sign_in_cleanup",
    "DELETE FROM sign_in_addresses WHERE address IN (SELECT address FROM sign_in_addresses "
    "WHERE window_start < now() - make_interval(secs => $1) LIMIT 100)"};

int64_t seconds(std::chrono::seconds s) {
  return s.count();
}

} // namespace

sign_in_subject subject_of(const pg_rows& rows) {
  sign_in_subject s;
  s.account_id = rows.opt_int64(0, 0);
  s.password_hash = rows.opt_text(0, 1);
  s.tenant_active = rows.boolean(0, 2);
  s.account_wait = std::max<int64_t>(0, rows.int64(0, 3));
  s.address_wait = std::max<int64_t>(0, rows.int64(0, 4));
  return s;
}

sign_in_subject find_sign_in(soci::session& sql, const account_statements& kind, int64_t account_id,
                             const std::string& address) {
  return subject_of(execute(
      sql, kind.subject,
      {account_id, address, domain::address_failures_per_window, seconds(domain::address_window)}));
}

void record_failed_sign_in(soci::session& sql, const account_statements& kind,
                           std::optional<int64_t> account_id, const std::string& address) {
  if (account_id) {
    auto rows = execute(sql, kind.failure, {*account_id});
    if (rows.size() > 0)
      if (auto lock = domain::account_lock_after(rows.int32(0, 0)); lock.count() > 0)
        execute(sql, kind.lock, {*account_id, seconds(lock)});
  }
  record_address_failure(sql, address);
}

void record_sign_in(soci::session& sql, const account_statements& kind, int64_t account_id) {
  execute(sql, kind.signed_in, {account_id});
}

std::optional<int64_t> use_setup_link(soci::session& sql, const account_statements& kind,
                                      const std::string& token_hash) {
  auto rows = execute(sql, kind.use_link, {token_hash});
  if (rows.size() == 0 || !rows.boolean(0, 1))
    return std::nullopt;
  return rows.int64(0, 0);
}

void set_password(soci::session& sql, const account_statements& kind, int64_t account_id,
                  const std::string& password_hash) {
  execute(sql, kind.set_password, {account_id, password_hash});
}

domain::timestamp open_account_session(soci::session& sql, const account_statements& kind,
                                       int64_t account_id, const std::string& token_hash,
                                       const std::string& csrf_token) {
  auto lifetime = std::chrono::duration_cast<std::chrono::seconds>(domain::session_lifetime);
  return execute(sql, kind.open_session,
                 {account_id, token_hash, csrf_token, seconds(lifetime),
                  domain::max_sessions_per_member - 1})
      .timestamp(0, 0);
}

void end_account_session(soci::session& sql, const account_statements& kind,
                         const std::string& token_hash) {
  execute(sql, kind.end_session, {token_hash});
}

void record_address_failure(soci::session& sql, const std::string& address) {
  const int64_t window = seconds(domain::address_window);
  execute(sql, address_failure_stmt, {address, window});
  execute(sql, address_cleanup_stmt, {window});
}

} // namespace vcs::storage
