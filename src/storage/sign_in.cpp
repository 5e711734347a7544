#include "storage/sign_in.hpp"

#include "domain/member.hpp"
#include "domain/sign_in_throttle.hpp"
#include "storage/prepared.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <chrono>

namespace vcs::storage {

namespace {

// An account name's attempt counted, unless it is locked (no row then);
// a name idle for a day starts again.
constexpr prepared_statement reserve_account_stmt{
    "vcs_reserve_account_sign_in",
    "INSERT INTO sign_in_accounts AS a (subject, failures) VALUES ($1, 1) "
    "ON CONFLICT (subject) DO UPDATE SET failures = CASE WHEN a.updated_at < now() - interval "
    "'1 day' THEN 1 ELSE a.failures + 1 END, updated_at = now() "
    "WHERE a.locked_until IS NULL OR a.locked_until <= now() RETURNING failures"};

constexpr prepared_statement account_wait_stmt{
    "vcs_account_sign_in_wait",
    "SELECT coalesce(ceil(extract(epoch FROM locked_until - now())), 0)::bigint "
    "FROM sign_in_accounts WHERE subject = $1"};

constexpr prepared_statement lock_account_stmt{
    "vcs_lock_account_sign_in",
    "UPDATE sign_in_accounts SET locked_until = now() + make_interval(secs => $2) "
    "WHERE subject = $1"};

// An address's attempt counted in its window of $2 seconds, unless it has
// spent its $3 (no row then).
constexpr prepared_statement reserve_address_stmt{
    "vcs_reserve_address_sign_in",
    "INSERT INTO sign_in_addresses AS a (address, failures, window_start) VALUES ($1, 1, now()) "
    "ON CONFLICT (address) DO UPDATE SET "
    "failures = CASE WHEN a.window_start > now() - make_interval(secs => $2) "
    "THEN a.failures + 1 ELSE 1 END, "
    "window_start = CASE WHEN a.window_start > now() - make_interval(secs => $2) "
    "THEN a.window_start ELSE now() END "
    "WHERE a.window_start <= now() - make_interval(secs => $2) OR a.failures < $3 "
    "RETURNING failures"};

constexpr prepared_statement address_wait_stmt{
    "vcs_address_sign_in_wait",
    "SELECT greatest(1, ceil(extract(epoch FROM window_start + make_interval(secs => $2) - "
    "now())))::bigint FROM sign_in_addresses WHERE address = $1"};

constexpr prepared_statement release_account_stmt{
    "vcs_release_account_sign_in", "DELETE FROM sign_in_accounts WHERE subject = $1"};

constexpr prepared_statement release_address_stmt{
    "vcs_release_address_sign_in",
    "UPDATE sign_in_addresses SET failures = greatest(failures - 1, 0) WHERE address = $1"};

constexpr prepared_statement address_cleanup_stmt{
    "vcs_address_sign_in_cleanup",
    "DELETE FROM sign_in_addresses WHERE address IN (SELECT address FROM sign_in_addresses "
    "WHERE window_start < now() - make_interval(secs => $1) LIMIT 100)"};

constexpr prepared_statement account_cleanup_stmt{
    "vcs_account_sign_in_cleanup",
    "DELETE FROM sign_in_accounts WHERE subject IN (SELECT subject FROM sign_in_accounts "
    "WHERE updated_at < now() - interval '1 day' AND (locked_until IS NULL OR locked_until < "
    "now()) LIMIT 100)"};

int64_t seconds(std::chrono::seconds s) {
  return s.count();
}

} // namespace

sign_in_subject subject_of(const pg_rows& rows) {
  sign_in_subject s;
  for (int i = 0; i < rows.size(); ++i)
    if (auto id = rows.opt_int64(i, 0))
      s.accounts.push_back({*id, rows.opt_text(i, 1), rows.boolean(i, 2)});
  return s;
}

sign_in_subject find_sign_in(soci::session& sql, const account_statements& kind,
                             int64_t account_id) {
  return subject_of(execute(sql, kind.subject, {account_id}));
}

int64_t reserve_sign_in(soci::session& sql, const std::string& throttle_key,
                        const std::string& address) {
  const int64_t window = seconds(domain::address_window);
  {
    soci::transaction tx{sql};
    auto account = execute(sql, reserve_account_stmt, {throttle_key});
    if (account.size() > 0) {
      auto address_row = execute(sql, reserve_address_stmt,
                                 {address, window, domain::address_failures_per_window});
      if (address_row.size() > 0) {
        if (auto lock = domain::account_lock_after(account.int32(0, 0)); lock.count() > 0)
          execute(sql, lock_account_stmt, {throttle_key, seconds(lock)});
        tx.commit();
        execute(sql, address_cleanup_stmt, {window});
        execute(sql, account_cleanup_stmt, {});
        return 0;
      }
    }
    // Refused: nothing is counted (the transaction rolls back).
  }
  auto account_wait = execute(sql, account_wait_stmt, {throttle_key});
  if (account_wait.size() > 0 && account_wait.int64(0, 0) > 0)
    return account_wait.int64(0, 0);
  auto address_wait = execute(sql, address_wait_stmt, {address, window});
  return address_wait.size() > 0 ? address_wait.int64(0, 0) : 1;
}

void release_sign_in(soci::session& sql, const std::string& throttle_key,
                     const std::string& address) {
  execute(sql, release_account_stmt, {throttle_key});
  execute(sql, release_address_stmt, {address});
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

} // namespace vcs::storage
