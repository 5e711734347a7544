#include "storage/member_repository.hpp"

#include "domain/sign_in_throttle.hpp"
#include "storage/prepared.hpp"

#include <soci/soci.h>

namespace vcs::storage {

namespace {

#define MEMBER_COLUMNS                                                                             \
  "id, tenant_id, email, role, password_hash IS NOT NULL, created_at, last_sign_in_at"

constexpr prepared_statement insert_stmt{
    "vcs_insert_member",
    "INSERT INTO members (tenant_id, email, role) VALUES ($1, $2, $3) "
    "ON CONFLICT (tenant_id, lower(email)) DO NOTHING RETURNING " MEMBER_COLUMNS};

// A new link replaces the member's earlier ones, so a member has at most
// one however often links are made.
constexpr prepared_statement insert_link_stmt{
    "vcs_insert_member_link", "WITH replaced AS (DELETE FROM member_links WHERE member_id = $2) "
                              "INSERT INTO member_links (token_hash, member_id, expires_at) "
                              "VALUES ($1, $2, now() + make_interval(secs => $3))"};

constexpr prepared_statement list_stmt{
    "vcs_list_members", "SELECT " MEMBER_COLUMNS " FROM members WHERE tenant_id = $1 ORDER BY id"};

constexpr prepared_statement roster_stmt{
    "vcs_lock_member_roster",
    "WITH t AS (SELECT id FROM tenants WHERE id = $1 FOR UPDATE) "
    "SELECT count(m.id), count(m.id) FILTER (WHERE m.role = 'owner' AND m.password_hash IS NOT "
    "NULL) FROM t LEFT JOIN members m ON m.tenant_id = t.id"};

constexpr prepared_statement find_stmt{"vcs_find_member",
                                       "SELECT " MEMBER_COLUMNS
                                       " FROM members WHERE tenant_id = $1 AND id = $2 FOR UPDATE"};

constexpr prepared_statement find_by_id_stmt{
    "vcs_find_member_by_id", "SELECT " MEMBER_COLUMNS " FROM members WHERE id = $1"};

constexpr prepared_statement set_role_stmt{"vcs_set_member_role",
                                           "UPDATE members SET role = $3 WHERE tenant_id = $1 AND "
                                           "id = $2 RETURNING " MEMBER_COLUMNS};
#undef MEMBER_COLUMNS

constexpr prepared_statement delete_stmt{"vcs_delete_member",
                                         "DELETE FROM members WHERE tenant_id = $1 AND id = $2"};

// The e-mail's members that have set a password ($2 a tenant, or any),
// signed in last first: the one a person usually means is tried first, and
// no hash is verified for a member that cannot sign in yet.
constexpr prepared_statement sign_in_stmt{
    "vcs_find_sign_in",
    "SELECT m.id, m.password_hash, t.active FROM members m JOIN tenants t ON t.id = m.tenant_id "
    "WHERE lower(m.email) = lower($1) AND ($2::bigint IS NULL OR m.tenant_id = $2) "
    "AND m.password_hash IS NOT NULL "
    "ORDER BY m.last_sign_in_at DESC NULLS LAST, m.id LIMIT $3"};
constexpr prepared_statement member_sign_in_stmt{
    "vcs_find_member_sign_in",
    "SELECT m.id, m.password_hash, coalesce(t.active, false) FROM (SELECT 1) one "
    "LEFT JOIN members m ON m.id = $1 LEFT JOIN tenants t ON t.id = m.tenant_id"};

constexpr prepared_statement signed_in_stmt{
    "vcs_member_signed_in", "UPDATE members SET last_sign_in_at = now() WHERE id = $1"};

constexpr prepared_statement use_link_stmt{
    "vcs_use_member_link",
    "DELETE FROM member_links WHERE token_hash = $1 RETURNING member_id, expires_at > now()"};

constexpr prepared_statement set_password_stmt{
    "vcs_set_member_password", "WITH ended AS (DELETE FROM member_sessions WHERE member_id = $1) "
                               "UPDATE members SET password_hash = $2 WHERE id = $1"};

// The member's expired sessions and its oldest past the most it may hold
// end in the same statement.
constexpr prepared_statement open_session_stmt{
    "vcs_open_member_session",
    "WITH ended AS (DELETE FROM member_sessions WHERE member_id = $1 AND (expires_at <= now() OR "
    "token_hash IN (SELECT token_hash FROM member_sessions WHERE member_id = $1 "
    "ORDER BY created_at DESC OFFSET $5))) "
    "INSERT INTO member_sessions (token_hash, member_id, csrf_token, expires_at) "
    "VALUES ($2, $1, $3, now() + make_interval(secs => $4)) RETURNING expires_at"};

constexpr prepared_statement find_session_stmt{
    "vcs_find_member_session",
    "WITH s AS (SELECT * FROM member_sessions WHERE token_hash = $1 AND expires_at > now() "
    "AND last_seen_at > now() - make_interval(secs => $2)), "
    "seen AS (UPDATE member_sessions x SET last_seen_at = now() FROM s "
    "WHERE x.token_hash = s.token_hash AND s.last_seen_at < now() - interval '1 minute') "
    "SELECT m.id, m.role, t.id, t.plan, t.active, s.csrf_token, s.expires_at, c.leads_version "
    "FROM s JOIN members m ON m.id = s.member_id JOIN tenants t ON t.id = m.tenant_id "
    "LEFT JOIN campaigns c ON c.tenant_id = t.id AND c.id = $3"};

constexpr prepared_statement end_session_stmt{"vcs_end_member_session",
                                              "DELETE FROM member_sessions WHERE token_hash = $1"};

constexpr prepared_statement end_member_sessions_stmt{
    "vcs_end_member_sessions", "DELETE FROM member_sessions WHERE member_id = $1"};

constexpr prepared_statement end_tenant_sessions_stmt{
    "vcs_end_tenant_sessions",
    "WITH portal AS (DELETE FROM client_user_sessions s USING client_users u "
    "WHERE u.id = s.client_user_id AND u.tenant_id = $1) "
    "DELETE FROM member_sessions s USING members m WHERE m.id = s.member_id AND m.tenant_id = $1"};

} // namespace

const account_statements member_accounts{member_sign_in_stmt, signed_in_stmt,    use_link_stmt,
                                         set_password_stmt,   open_session_stmt, end_session_stmt};

namespace {

domain::member_info member_of(const pg_rows& rows, int i) {
  domain::member_info m;
  m.id = rows.int64(i, 0);
  m.tenant_id = rows.int64(i, 1);
  m.email = rows.text(i, 2);
  m.role = rows.parsed(i, 3, domain::parse_member_role);
  m.active = rows.boolean(i, 4);
  m.created_at = rows.timestamp(i, 5);
  m.last_sign_in_at = rows.opt_timestamp(i, 6);
  return m;
}

std::optional<domain::member_info> first_member(const pg_rows& rows) {
  if (rows.size() == 0)
    return std::nullopt;
  return member_of(rows, 0);
}

int64_t seconds(std::chrono::seconds s) {
  return s.count();
}

} // namespace

std::optional<domain::member_info> insert_member(soci::session& sql, int64_t tenant_id,
                                                 const std::string& email,
                                                 domain::member_role role) {
  return first_member(
      execute(sql, insert_stmt, {tenant_id, email, std::string{domain::to_string(role)}}));
}

invitation invite_member(soci::session& sql, int64_t tenant_id, const std::string& email,
                         domain::member_role role, const std::string& link_hash) {
  soci::transaction tx{sql};
  invitation out;
  if (lock_member_roster(sql, tenant_id).members >= max_members_per_tenant) {
    out.result = invitation::outcome::too_many;
    return out;
  }
  auto member = insert_member(sql, tenant_id, email, role);
  if (!member) {
    out.result = invitation::outcome::email_taken;
    return out;
  }
  insert_setup_link(sql, member->id, link_hash, domain::setup_link_validity);
  tx.commit();
  out.member = std::move(*member);
  return out;
}

void insert_setup_link(soci::session& sql, int64_t member_id, const std::string& token_hash,
                       std::chrono::seconds validity) {
  execute(sql, insert_link_stmt, {token_hash, member_id, seconds(validity)});
}

std::vector<domain::member_info> list_members(soci::session& sql, int64_t tenant_id) {
  auto rows = execute(sql, list_stmt, {tenant_id});
  std::vector<domain::member_info> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    out.push_back(member_of(rows, i));
  return out;
}

member_roster lock_member_roster(soci::session& sql, int64_t tenant_id) {
  auto rows = execute(sql, roster_stmt, {tenant_id});
  return {rows.int64(0, 0), rows.int64(0, 1)};
}

std::optional<domain::member_info> find_member(soci::session& sql, int64_t tenant_id,
                                               int64_t member_id) {
  return first_member(execute(sql, find_stmt, {tenant_id, member_id}));
}

std::optional<domain::member_info> find_member_by_id(soci::session& sql, int64_t member_id) {
  return first_member(execute(sql, find_by_id_stmt, {member_id}));
}

std::optional<domain::member_info> set_member_role(soci::session& sql, int64_t tenant_id,
                                                   int64_t member_id, domain::member_role role) {
  return first_member(
      execute(sql, set_role_stmt, {tenant_id, member_id, std::string{domain::to_string(role)}}));
}

bool delete_member(soci::session& sql, int64_t tenant_id, int64_t member_id) {
  return execute(sql, delete_stmt, {tenant_id, member_id}).affected() > 0;
}

sign_in_subject find_sign_in(soci::session& sql, const std::string& email,
                             std::optional<int64_t> tenant_id) {
  auto found = subject_of(
      execute(sql, sign_in_stmt, {email, tenant_id, int64_t{domain::member_accounts_tried}}));
  found.throttle_key = domain::sign_in_subject("member", 0, email);
  return found;
}

std::optional<session_principal> find_session(soci::session& sql, const std::string& token_hash,
                                              std::optional<int64_t> campaign_id) {
  auto idle = std::chrono::duration_cast<std::chrono::seconds>(domain::session_idle_timeout);
  auto rows = execute(sql, find_session_stmt, {token_hash, seconds(idle), campaign_id});
  if (rows.size() == 0)
    return std::nullopt;
  session_principal s;
  auto& p = s.principal;
  p.member_id = rows.int64(0, 0);
  p.role = rows.parsed(0, 1, domain::parse_member_role);
  p.tenant_id = rows.int64(0, 2);
  p.plan = rows.parsed(0, 3, domain::parse_plan);
  p.tenant_active = rows.boolean(0, 4);
  p.scope.permissions = domain::role_permissions(p.role);
  s.csrf_token = rows.text(0, 5);
  s.expires_at = rows.timestamp(0, 6);
  s.leads_version = rows.opt_int64(0, 7);
  return s;
}

void end_member_sessions(soci::session& sql, int64_t member_id) {
  execute(sql, end_member_sessions_stmt, {member_id});
}

void end_tenant_sessions(soci::session& sql, int64_t tenant_id) {
  execute(sql, end_tenant_sessions_stmt, {tenant_id});
}

} // namespace vcs::storage
