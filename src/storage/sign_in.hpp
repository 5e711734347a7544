#pragma once

// What members (console) and client users (portal) share in signing in:
// the subject a sign-in reads before any password is checked, a live
// session's principal, and the throttle per client address
// (domain/sign_in_throttle.hpp).

#include "domain/tenant.hpp"
#include "domain/timestamp.hpp"
#include "storage/prepared.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace soci {
class session;
}

namespace vcs::storage {

// What a sign-in needs, read before the password is checked.
struct sign_in_subject {
  // The account, when the e-mail names one that may sign in.
  std::optional<int64_t> account_id;
  std::optional<std::string> password_hash;
  bool tenant_active = false;
  // Seconds until the account, or the client address, may try again.
  int64_t account_wait = 0;
  int64_t address_wait = 0;
};

struct session_principal {
  domain::principal principal;
  std::string csrf_token;
  domain::timestamp expires_at{};
  // The leads version of the campaign asked for, when the tenant has it.
  std::optional<int64_t> leads_version;
};

// The statements one kind of account (members, client users) signs in
// with; each kind's repository defines its set, and the functions below run
// them.
struct account_statements {
  // $1 account, $2 address, $3 failures an address may have, $4 window
  // seconds: id, password hash, tenant active, account wait, address wait.
  prepared_statement subject;
  // $1 account: its failures in a row, counted one more.
  prepared_statement failure;
  // $1 account, $2 seconds it is refused for.
  prepared_statement lock;
  // $1 account: failures forgotten, last sign-in now.
  prepared_statement signed_in;
  // $1 link hash: the row goes; account, whether it was valid.
  prepared_statement use_link;
  // $1 account, $2 password hash; every session of it ends.
  prepared_statement set_password;
  // $1 account, $2 token hash, $3 CSRF token, $4 lifetime seconds, $5
  // sessions kept besides it: its expiry.
  prepared_statement open_session;
  // $1 token hash.
  prepared_statement end_session;
};

// A sign-in subject read from a row of `subject` (or of a kind's look-up by
// e-mail, in the same columns).
sign_in_subject subject_of(const pg_rows& rows);

// The account `account_id` (a signed-in account checking its password).
sign_in_subject find_sign_in(soci::session& sql, const account_statements& kind, int64_t account_id,
                             const std::string& address);
// A failed sign-in, counted against the account (when there is one) and the
// address.
void record_failed_sign_in(soci::session& sql, const account_statements& kind,
                           std::optional<int64_t> account_id, const std::string& address);
// A successful one: the account's failures are forgotten.
void record_sign_in(soci::session& sql, const account_statements& kind, int64_t account_id);
// Uses a one-time link: the row goes; the account when it was valid.
std::optional<int64_t> use_setup_link(soci::session& sql, const account_statements& kind,
                                      const std::string& token_hash);
// A new password; every session of the account ends.
void set_password(soci::session& sql, const account_statements& kind, int64_t account_id,
                  const std::string& password_hash);
// A new session (the account's expired ones, and its oldest past
// domain::max_sessions_per_member, end); its expiry.
domain::timestamp open_account_session(soci::session& sql, const account_statements& kind,
                                       int64_t account_id, const std::string& token_hash,
                                       const std::string& csrf_token);
void end_account_session(soci::session& sql, const account_statements& kind,
                         const std::string& token_hash);

// A failed sign-in counted against the client address, and a bounded
// clean-up of addresses whose window ended.
void record_address_failure(soci::session& sql, const std::string& address);

} // namespace vcs::storage
