#pragma once

// What members (console) and client users (portal) share in signing in:
// the subject a sign-in reads before any password is checked, a live
// session's principal, and the throttle per account name and per client
// address (domain/sign_in_throttle.hpp).

#include "domain/tenant.hpp"
#include "domain/timestamp.hpp"
#include "storage/prepared.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// An account a sign-in may be for.
struct sign_in_account {
  int64_t id = 0;
  // None until its set-up link is used.
  std::optional<std::string> password_hash;
  bool tenant_active = false;
};

// What a sign-in needs, read before the password is checked.
struct sign_in_subject {
  // The accounts the name may be (a member's e-mail in several tenants),
  // in the order they are tried; none when it names no account that may
  // sign in.
  std::vector<sign_in_account> accounts;
  // What its failures are counted under (domain::sign_in_subject).
  std::string throttle_key;
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
  // $1 account: id, password hash, tenant active.
  prepared_statement subject;
  // $1 account: last sign-in now.
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

// A sign-in subject read from rows of `subject` (or of a kind's look-up by
// e-mail, in the same columns); a row without an account is skipped.
sign_in_subject subject_of(const pg_rows& rows);

// The account `account_id` (a signed-in account checking its password).
sign_in_subject find_sign_in(soci::session& sql, const account_statements& kind,
                             int64_t account_id);
// Counts one attempt of `throttle_key` from `address` as a failure before
// its password is checked, in one transaction under both rows' locks: 0
// when it may go ahead, else the seconds until it may (nothing counted).
// The attempt that spends the account's free failures locks it
// (domain::account_lock_after) for the attempts after it.
int64_t reserve_sign_in(soci::session& sql, const std::string& throttle_key,
                        const std::string& address);
// The reserved attempt was right: the account's failures and lock are
// forgotten, and the address's failure given back.
void release_sign_in(soci::session& sql, const std::string& throttle_key,
                     const std::string& address);
// A sign-in: the account's last sign-in is now.
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

} // namespace vcs::storage
