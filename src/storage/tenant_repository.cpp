#include "storage/tenant_repository.hpp"

#include "storage/contact_cap_row.hpp"
#include "storage/prepared.hpp"

#include <stdexcept>

namespace vcs::storage {

namespace {

// The columns of a tenant, read by tenant_of.
#define TENANT_COLUMNS                                                                             \
  "id, name, plan, campaign_limit, active, created_at, updated_at, calling_purpose, "              \
  "contact_cap_calls, contact_cap_hours"

namespace tenant_col {
enum : int {
  id,
  name,
  plan,
  campaign_limit,
  active,
  created_at,
  updated_at,
  calling_purpose,
  contact_cap_calls,
  contact_cap_hours
};
} // namespace tenant_col

constexpr prepared_statement insert_stmt{
    "vcs_insert_tenant", "INSERT INTO tenants (name, plan, campaign_limit) VALUES ($1, $2, $3) "
                         "RETURNING " TENANT_COLUMNS};

constexpr prepared_statement select_stmt{"vcs_find_tenant",
                                         "SELECT " TENANT_COLUMNS " FROM tenants WHERE id = $1"};

// Keyset pages in id order; a NULL $2 matches active and inactive tenants.
constexpr prepared_statement list_stmt{
    "vcs_list_tenants", "SELECT " TENANT_COLUMNS " FROM tenants WHERE id > $1 "
                        "AND ($2::boolean IS NULL OR active = $2) ORDER BY id LIMIT $3"};

// $4 says whether to set campaign_limit to $5 (NULL: back to the plan
// default); $8 whether to set the contact cap to $9 calls in $10 hours
// (NULL: none).
constexpr prepared_statement update_stmt{
    "vcs_update_tenant",
    "UPDATE tenants SET name = coalesce($2, name), plan = coalesce($3, plan), "
    "campaign_limit = CASE WHEN $4::boolean THEN $5 ELSE campaign_limit END, "
    "active = coalesce($6::boolean, active), "
    "calling_purpose = coalesce($7, calling_purpose), "
    "contact_cap_calls = CASE WHEN $8::boolean THEN $9 ELSE contact_cap_calls END, "
    "contact_cap_hours = CASE WHEN $8::boolean THEN $10 ELSE contact_cap_hours END, "
    "updated_at = now() "
    "WHERE id = $1 "
    "RETURNING " TENANT_COLUMNS};
#undef TENANT_COLUMNS

domain::tenant tenant_of(const pg_rows& rows, int i) {
  domain::tenant t;
  t.id = rows.int64(i, tenant_col::id);
  t.name = rows.text(i, tenant_col::name);
  t.plan = rows.parsed(i, tenant_col::plan, domain::parse_plan);
  t.campaign_limit_override = rows.opt_int32(i, tenant_col::campaign_limit);
  t.active = rows.boolean(i, tenant_col::active);
  t.created_at = rows.timestamp(i, tenant_col::created_at);
  t.updated_at = rows.timestamp(i, tenant_col::updated_at);
  t.calling_purpose_default =
      rows.parsed(i, tenant_col::calling_purpose, domain::parse_calling_purpose);
  t.contact_cap = contact_cap_of(rows, i, tenant_col::contact_cap_calls);
  return t;
}

} // namespace

domain::tenant insert_tenant(soci::session& sql, const std::string& name, domain::plan plan,
                             std::optional<int32_t> campaign_limit) {
  auto rows = execute(sql, insert_stmt, {name, domain::to_string(plan), campaign_limit});
  if (rows.size() == 0)
    throw std::runtime_error("tenant insert returned no row");
  return tenant_of(rows, 0);
}

std::optional<domain::tenant> find_tenant(soci::session& sql, int64_t tenant_id) {
  auto rows = execute(sql, select_stmt, {tenant_id});
  if (rows.size() == 0)
    return std::nullopt;
  return tenant_of(rows, 0);
}

std::optional<domain::tenant> update_tenant(soci::session& sql, int64_t tenant_id,
                                            const domain::tenant_patch& patch) {
  std::optional<std::string_view> plan;
  if (patch.plan)
    plan = domain::to_string(*patch.plan);
  const bool set_limit = patch.campaign_limit.has_value();
  const std::optional<int32_t> limit = patch.campaign_limit.value_or(std::nullopt);
  std::optional<std::string_view> purpose;
  if (patch.calling_purpose_default)
    purpose = domain::to_string(*patch.calling_purpose_default);
  const bool set_cap = patch.contact_cap.has_value();
  const auto cap = patch.contact_cap.value_or(std::nullopt);
  std::optional<int32_t> cap_calls, cap_hours;
  if (cap) {
    cap_calls = cap->calls;
    cap_hours = static_cast<int32_t>(cap->window.count());
  }
  auto rows = execute(sql, update_stmt,
                      {tenant_id, patch.name, plan, set_limit, limit, patch.active, purpose,
                       set_cap, cap_calls, cap_hours});
  if (rows.size() == 0)
    return std::nullopt;
  return tenant_of(rows, 0);
}

std::vector<domain::tenant> list_tenants(soci::session& sql, int64_t after_id,
                                         std::optional<bool> active, int32_t limit) {
  auto rows = execute(sql, list_stmt, {after_id, active, limit});
  std::vector<domain::tenant> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    out.push_back(tenant_of(rows, i));
  return out;
}

} // namespace vcs::storage
