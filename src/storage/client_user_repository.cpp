#include "storage/client_user_repository.hpp"

#include "domain/global_id.hpp"
#include "domain/member.hpp"
#include "domain/sign_in_throttle.hpp"
#include "storage/prepared.hpp"

#include <soci/soci.h>

namespace vcs::storage {

namespace {

#define USER_COLUMNS "u.id, u.client_id, u.email, u.disabled, u.created_at, u.last_sign_in_at"

// The client row is read too, so an unknown client is told from one without
// users.
constexpr prepared_statement list_stmt{
    "vcs_list_portal_users",
    "SELECT " USER_COLUMNS " FROM clients c LEFT JOIN client_users u ON u.tenant_id = c.tenant_id "
    "AND u.client_id = c.id WHERE c.tenant_id = $1 AND c.id = $2 ORDER BY u.id"};

constexpr prepared_statement set_disabled_stmt{
    "vcs_set_client_user_disabled",
    "WITH ended AS (DELETE FROM client_user_sessions s USING client_users x "
    "WHERE $4 AND x.id = s.client_user_id AND x.tenant_id = $1 AND x.client_id = $2 AND x.id = $3) "
    "UPDATE client_users u SET disabled = $4 WHERE u.tenant_id = $1 AND u.client_id = $2 "
    "AND u.id = $3 RETURNING " USER_COLUMNS};

// The status of the live subscription of client user u's client; '' without
// one.
#define LIVE_SUBSCRIPTION_STATUS                                                                   \
  "coalesce((SELECT b.status FROM subscriptions b WHERE b.tenant_id = u.tenant_id "                \
  "AND b.client_id = u.client_id AND b.status <> 'canceled' ORDER BY b.id DESC LIMIT 1), '')"

constexpr prepared_statement identity_stmt{
    "vcs_find_portal_identity",
    "SELECT " USER_COLUMNS ", c.name, u.tenant_id, " LIVE_SUBSCRIPTION_STATUS
    " FROM client_users u JOIN clients c ON c.tenant_id = u.tenant_id AND c.id = u.client_id "
    "WHERE u.id = $1"};
#undef USER_COLUMNS

constexpr prepared_statement access_stmt{
    "vcs_portal_access", "SELECT a.resource_kind, a.access_level FROM client_access a "
                         "WHERE a.client_id = $1 ORDER BY a.resource_kind"};

// A new link replaces the user's earlier ones.
constexpr prepared_statement insert_link_stmt{
    "vcs_insert_client_user_link",
    "WITH u AS (SELECT id FROM client_users WHERE tenant_id = $1 AND client_id = $2 AND id = $3), "
    "replaced AS (DELETE FROM client_user_links l USING u WHERE l.client_user_id = u.id) "
    "INSERT INTO client_user_links (token_hash, client_user_id, expires_at) "
    "SELECT $4, u.id, now() + make_interval(secs => $5) FROM u"};

constexpr prepared_statement use_link_stmt{"vcs_use_client_user_link",
                                           "DELETE FROM client_user_links WHERE token_hash = $1 "
                                           "RETURNING client_user_id, expires_at > now()"};

constexpr prepared_statement set_password_stmt{
    "vcs_set_client_user_password",
    "WITH ended AS (DELETE FROM client_user_sessions WHERE client_user_id = $1) "
    "UPDATE client_users SET password_hash = $2 WHERE id = $1"};

#define SIGN_IN_SELECT                                                                             \
  "SELECT u.id, u.password_hash, coalesce(t.active, false) FROM (SELECT 1) one "
constexpr prepared_statement sign_in_stmt{
    "vcs_find_client_sign_in",
    SIGN_IN_SELECT "LEFT JOIN client_users u ON u.tenant_id = $2 AND lower(u.email) = lower($1) "
                   "AND NOT u.disabled LEFT JOIN tenants t ON t.id = u.tenant_id"};
constexpr prepared_statement user_sign_in_stmt{
    "vcs_find_client_user_sign_in",
    SIGN_IN_SELECT "LEFT JOIN client_users u ON u.id = $1 AND NOT u.disabled "
                   "LEFT JOIN tenants t ON t.id = u.tenant_id"};
#undef SIGN_IN_SELECT

constexpr prepared_statement signed_in_stmt{
    "vcs_client_user_signed_in", "UPDATE client_users SET last_sign_in_at = now() WHERE id = $1"};

constexpr prepared_statement open_session_stmt{
    "vcs_open_client_session",
    "WITH ended AS (DELETE FROM client_user_sessions WHERE client_user_id = $1 AND (expires_at <= "
    "now() OR token_hash IN (SELECT token_hash FROM client_user_sessions WHERE client_user_id = $1 "
    "ORDER BY created_at DESC OFFSET $5))) "
    "INSERT INTO client_user_sessions (token_hash, client_user_id, csrf_token, expires_at) "
    "VALUES ($2, $1, $3, now() + make_interval(secs => $4)) RETURNING expires_at"};

// The client's campaign level (null when none was given), its live
// subscription's status and its assigned campaigns' global ids.
constexpr prepared_statement find_session_stmt{
    "vcs_find_client_session",
    "WITH s AS (SELECT * FROM client_user_sessions WHERE token_hash = $1 AND expires_at > now() "
    "AND last_seen_at > now() - make_interval(secs => $2)), "
    "seen AS (UPDATE client_user_sessions x SET last_seen_at = now() FROM s "
    "WHERE x.token_hash = s.token_hash AND s.last_seen_at < now() - interval '1 minute') "
    "SELECT u.id, u.client_id, t.id, t.plan, t.active, s.csrf_token, s.expires_at, "
    "c.leads_version, "
    "(SELECT a.access_level FROM client_access a WHERE a.client_id = u.client_id "
    "AND a.resource_kind = 'campaign'), " LIVE_SUBSCRIPTION_STATUS ", "
    "ARRAY(SELECT DISTINCT r.resource_id FROM assigned_resources r JOIN account_configurations g "
    "ON g.tenant_id = r.tenant_id AND g.id = r.account_configuration_id WHERE g.tenant_id = "
    "u.tenant_id AND g.client_id = u.client_id AND r.resource_kind = 'campaign') "
    "FROM s JOIN client_users u ON u.id = s.client_user_id AND NOT u.disabled "
    "JOIN tenants t ON t.id = u.tenant_id "
    "LEFT JOIN campaigns c ON c.tenant_id = t.id AND c.id = $3"};
#undef LIVE_SUBSCRIPTION_STATUS

constexpr prepared_statement end_session_stmt{
    "vcs_end_client_session", "DELETE FROM client_user_sessions WHERE token_hash = $1"};

constexpr prepared_statement client_exists_stmt{
    "vcs_lock_client_for_access",
    "SELECT 1 FROM clients WHERE tenant_id = $1 AND id = $2 FOR UPDATE"};
constexpr prepared_statement clear_access_stmt{
    "vcs_clear_client_access", "DELETE FROM client_access WHERE tenant_id = $1 AND client_id = $2"};
constexpr prepared_statement insert_access_stmt{
    "vcs_replace_client_access",
    "INSERT INTO client_access (tenant_id, client_id, resource_kind, access_level) "
    "SELECT $1, $2, k, l FROM unnest($3::text[], $4::text[]) AS x(k, l)"};

} // namespace

const account_statements client_user_accounts{user_sign_in_stmt, signed_in_stmt,
                                              use_link_stmt,     set_password_stmt,
                                              open_session_stmt, end_session_stmt};

namespace {

client_user_info user_of(const pg_rows& rows, int i) {
  client_user_info u;
  u.id = rows.int64(i, 0);
  u.client_id = rows.int64(i, 1);
  u.email = rows.text(i, 2);
  u.disabled = rows.boolean(i, 3);
  u.created_at = rows.timestamp(i, 4);
  u.last_sign_in_at = rows.opt_timestamp(i, 5);
  return u;
}

int64_t seconds(std::chrono::seconds s) {
  return s.count();
}

} // namespace

std::optional<std::vector<client_user_info>>
list_client_users(soci::session& sql, int64_t tenant_id, int64_t client_id) {
  auto rows = execute(sql, list_stmt, {tenant_id, client_id});
  if (rows.size() == 0)
    return std::nullopt;
  std::vector<client_user_info> out;
  for (int i = 0; i < rows.size(); ++i)
    if (!rows.is_null(i, 0))
      out.push_back(user_of(rows, i));
  return out;
}

std::optional<client_user_info> set_client_user_disabled(soci::session& sql, int64_t tenant_id,
                                                         int64_t client_id, int64_t user_id,
                                                         bool disabled) {
  auto rows = execute(sql, set_disabled_stmt, {tenant_id, client_id, user_id, disabled});
  if (rows.size() == 0)
    return std::nullopt;
  return user_of(rows, 0);
}

bool insert_client_user_link(soci::session& sql, int64_t tenant_id, int64_t client_id,
                             int64_t user_id, const std::string& token_hash,
                             std::chrono::seconds validity) {
  return execute(sql, insert_link_stmt,
                 {tenant_id, client_id, user_id, token_hash, seconds(validity)})
             .affected() > 0;
}

sign_in_subject find_client_sign_in(soci::session& sql, int64_t tenant_id,
                                    const std::string& email) {
  auto found = subject_of(execute(sql, sign_in_stmt, {email, tenant_id}));
  found.throttle_key = domain::sign_in_subject("client_user", tenant_id, email);
  return found;
}

std::optional<session_principal> find_client_session(soci::session& sql,
                                                     const std::string& token_hash,
                                                     std::optional<int64_t> campaign_id) {
  auto idle = std::chrono::duration_cast<std::chrono::seconds>(domain::session_idle_timeout);
  auto rows = execute(sql, find_session_stmt, {token_hash, seconds(idle), campaign_id});
  if (rows.size() == 0)
    return std::nullopt;
  session_principal s;
  auto& p = s.principal;
  domain::client_user_access client;
  client.client_user_id = rows.int64(0, 0);
  client.client_id = rows.int64(0, 1);
  p.tenant_id = rows.int64(0, 2);
  p.plan = rows.parsed(0, 3, domain::parse_plan);
  p.tenant_active = rows.boolean(0, 4);
  s.csrf_token = rows.text(0, 5);
  s.expires_at = rows.timestamp(0, 6);
  s.leads_version = rows.opt_int64(0, 7);
  std::vector<std::pair<std::string, std::string>> given;
  if (auto level = rows.opt_text(0, 8))
    given.emplace_back("campaign", std::move(*level));
  client.campaigns = domain::level_of(given, "campaign");
  client.subscription_status = rows.text(0, 9);
  std::vector<int64_t> campaigns;
  if (client.campaigns != domain::access_level::no_access)
    for (const auto& id : rows.text_array(0, 10))
      if (auto decoded = domain::decode_global_id(domain::entity::campaign, id))
        campaigns.push_back(*decoded);
  p.scope.campaigns = std::move(campaigns);
  p.client = std::move(client);
  return s;
}

std::optional<portal_identity> find_portal_identity(soci::session& sql, int64_t user_id) {
  auto rows = execute(sql, identity_stmt, {user_id});
  if (rows.size() == 0)
    return std::nullopt;
  portal_identity out{user_of(rows, 0),
                      std::string{rows.text(0, 6)},
                      rows.int64(0, 7),
                      {},
                      std::string{rows.text(0, 8)}};
  auto access = execute(sql, access_stmt, {out.user.client_id});
  for (int i = 0; i < access.size(); ++i)
    out.access.emplace_back(access.text(i, 0), access.text(i, 1));
  return out;
}

bool set_client_access(soci::session& sql, int64_t tenant_id, int64_t client_id,
                       const std::vector<std::pair<std::string, std::string>>& access) {
  soci::transaction tx{sql};
  if (execute(sql, client_exists_stmt, {tenant_id, client_id}).size() == 0)
    return false;
  std::vector<std::string> kinds, levels;
  for (const auto& [kind, level] : access) {
    kinds.push_back(kind);
    levels.push_back(level);
  }
  execute(sql, clear_access_stmt, {tenant_id, client_id});
  execute(sql, insert_access_stmt, {tenant_id, client_id, kinds, levels});
  tx.commit();
  return true;
}

} // namespace vcs::storage
