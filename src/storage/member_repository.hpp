#pragma once

// The tenant's members, their one-time set-up links, their sessions and the
// sign-in throttle (domain/member.hpp, domain/sign_in_throttle.hpp).

#include "domain/member.hpp"
#include "domain/tenant.hpp"
#include "storage/sign_in.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// Members one tenant may hold at once, invited ones included.
inline constexpr int64_t max_members_per_tenant = 1'000;

// nullopt when the e-mail already belongs to a member (of any tenant).
std::optional<domain::member_info> insert_member(soci::session& sql, int64_t tenant_id,
                                                 const std::string& email,
                                                 domain::member_role role);

struct invitation {
  enum class outcome { invited, email_taken, too_many } result = outcome::invited;
  domain::member_info member;
};
// A new member and its set-up link, in one transaction with the tenant's
// row locked (at most max_members_per_tenant).
invitation invite_member(soci::session& sql, int64_t tenant_id, const std::string& email,
                         domain::member_role role, const std::string& link_hash);

// A one-time link for the member (token_hash: domain::hash_api_key of it);
// its earlier links stop working.
void insert_setup_link(soci::session& sql, int64_t member_id, const std::string& token_hash,
                       std::chrono::seconds validity);

// The tenant's members in id order.
std::vector<domain::member_info> list_members(soci::session& sql, int64_t tenant_id);

struct member_roster {
  int64_t members = 0;
  // Owners who can sign in (they set their password).
  int64_t active_owners = 0;
};

// Counts the tenant's members with its row locked until the transaction
// ends, so two changes of its members on two nodes run one after the other.
member_roster lock_member_roster(soci::session& sql, int64_t tenant_id);

// The tenant's member, locked until the transaction ends.
std::optional<domain::member_info> find_member(soci::session& sql, int64_t tenant_id,
                                               int64_t member_id);
// A member by id alone (from its session or its set-up link).
std::optional<domain::member_info> find_member_by_id(soci::session& sql, int64_t member_id);

// A new role, read by the member's sessions from their next request.
std::optional<domain::member_info> set_member_role(soci::session& sql, int64_t tenant_id,
                                                   int64_t member_id, domain::member_role role);

// The member, its links and its sessions go.
bool delete_member(soci::session& sql, int64_t tenant_id, int64_t member_id);

// What signing in as a member of `email` needs: of `tenant_id`, or of any
// tenant (at most domain::member_accounts_tried of them). Failures count
// per e-mail whichever tenant is named.
sign_in_subject find_sign_in(soci::session& sql, const std::string& email,
                             std::optional<int64_t> tenant_id);
// How members sign in (storage/sign_in.hpp).
extern const account_statements member_accounts;

// A live session (neither idle past its timeout nor past its lifetime) and
// its member and tenant, in one round trip that also notes the request (at
// most once a minute); with the leads version of `campaign_id` when given.
std::optional<session_principal> find_session(soci::session& sql, const std::string& token_hash,
                                              std::optional<int64_t> campaign_id);

void end_member_sessions(soci::session& sql, int64_t member_id);
// Every session of the tenant's members and client users.
void end_tenant_sessions(soci::session& sql, int64_t tenant_id);

} // namespace vcs::storage
