#pragma once

// Client users as the portal knows them: their status and last sign-in,
// their one-time password links, their sessions, and their client's access
// (domain/client_access.hpp). The sign-in throttle is the members' one
// (storage/sign_in.hpp).

#include "domain/timestamp.hpp"
#include "storage/sign_in.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

struct client_user_info {
  int64_t id = 0;
  int64_t client_id = 0;
  std::string email;
  bool disabled = false;
  domain::timestamp created_at{};
  std::optional<domain::timestamp> last_sign_in_at;
};

// The client's users in id order; nullopt when the tenant has no such
// client.
std::optional<std::vector<client_user_info>>
list_client_users(soci::session& sql, int64_t tenant_id, int64_t client_id);

// Disables or enables the client's user; disabling ends its sessions in
// the same statement. nullopt when the tenant's client has no such user.
std::optional<client_user_info> set_client_user_disabled(soci::session& sql, int64_t tenant_id,
                                                         int64_t client_id, int64_t user_id,
                                                         bool disabled);

// A one-time link setting the user's password (token_hash:
// domain::hash_api_key of it), replacing its earlier ones; false when the
// tenant's client has no such user.
bool insert_client_user_link(soci::session& sql, int64_t tenant_id, int64_t client_id,
                             int64_t user_id, const std::string& token_hash,
                             std::chrono::seconds validity);

// What signing in as the tenant's client user of `email` needs; a disabled
// user is no account.
sign_in_subject find_client_sign_in(soci::session& sql, int64_t tenant_id,
                                    const std::string& email);
// How client users sign in (storage/sign_in.hpp); a disabled user is no
// account.
extern const account_statements client_user_accounts;

// A live portal session and what its client holds, in one round trip that
// also notes the request (at most once a minute): the principal's scope is
// the campaigns assigned to the client's account configurations (none at
// no_access), its `client` the level and subscription status.
std::optional<session_principal> find_client_session(soci::session& sql,
                                                     const std::string& token_hash,
                                                     std::optional<int64_t> campaign_id);

// What the portal shows of its user: e-mail, client name, tenant, access
// (kind to level name, as given) and the live subscription's status (empty
// without one).
struct portal_identity {
  client_user_info user;
  std::string client_name;
  int64_t tenant_id = 0;
  std::vector<std::pair<std::string, std::string>> access;
  std::string subscription_status;
};
std::optional<portal_identity> find_portal_identity(soci::session& sql, int64_t user_id);

// Replaces the client's access levels (kind to level name); false when the
// tenant has no such client.
bool set_client_access(soci::session& sql, int64_t tenant_id, int64_t client_id,
                       const std::vector<std::pair<std::string, std::string>>& access);

} // namespace vcs::storage
