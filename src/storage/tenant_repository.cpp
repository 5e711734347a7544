#include "storage/tenant_repository.hpp"

#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr const char* insert_sql =
    "INSERT INTO tenants (name, plan, campaign_limit) VALUES (:name, :plan, :lim) "
    "RETURNING id, name, plan, campaign_limit, active::int, created_at, updated_at";

constexpr const char* select_sql =
    "SELECT id, name, plan, campaign_limit, active::int, created_at, "
    "updated_at FROM tenants WHERE id = :id";

constexpr const char* update_sql =
    "UPDATE tenants SET name = coalesce(:name, name), plan = coalesce(:plan, plan), "
    "campaign_limit = CASE WHEN :set_limit = 1 THEN :lim ELSE campaign_limit END, "
    "active = coalesce(:active::int::boolean, active), updated_at = now() WHERE id = :id "
    "RETURNING id, name, plan, campaign_limit, active::int, created_at, updated_at";

// Output columns shared by every statement above.
struct tenant_columns {
  domain::tenant value;
  std::string plan, created_at, updated_at;
  int limit = 0, active = 0;
  soci::indicator limit_ind = soci::i_null;

  void bind(soci::details::prepare_temp_type& st) {
    st, soci::into(value.id), soci::into(value.name), soci::into(plan),
        soci::into(limit, limit_ind), soci::into(active), soci::into(created_at),
        soci::into(updated_at);
  }

  domain::tenant finish() {
    auto p = domain::parse_plan(plan);
    auto c = domain::parse_pg_timestamp(created_at);
    auto u = domain::parse_pg_timestamp(updated_at);
    if (!p || !c || !u)
      throw std::runtime_error("unreadable tenant row");
    value.plan = *p;
    value.created_at = *c;
    value.updated_at = *u;
    value.active = active != 0;
    if (limit_ind == soci::i_ok)
      value.campaign_limit_override = limit;
    return value;
  }
};

} // namespace

domain::tenant insert_tenant(soci::session& sql, const std::string& name, domain::plan plan,
                             std::optional<int32_t> campaign_limit) {
  tenant_columns out;
  std::string plan_text{domain::to_string(plan)};
  int lim = campaign_limit.value_or(0);
  soci::indicator lim_ind = campaign_limit ? soci::i_ok : soci::i_null;
  auto prep =
      (sql.prepare << insert_sql, soci::use(name), soci::use(plan_text), soci::use(lim, lim_ind));
  out.bind(prep);
  soci::statement st{prep};
  st.execute(true);
  return out.finish();
}

std::optional<domain::tenant> find_tenant(soci::session& sql, int64_t tenant_id) {
  tenant_columns out;
  auto prep = (sql.prepare << select_sql, soci::use(tenant_id));
  out.bind(prep);
  soci::statement st{prep};
  if (!st.execute(true))
    return std::nullopt;
  return out.finish();
}

std::optional<domain::tenant> update_tenant(soci::session& sql, int64_t tenant_id,
                                            const domain::tenant_patch& patch) {
  tenant_columns out;
  std::string name = patch.name.value_or("");
  soci::indicator name_ind = patch.name ? soci::i_ok : soci::i_null;
  std::string plan{patch.plan ? domain::to_string(*patch.plan) : ""};
  soci::indicator plan_ind = patch.plan ? soci::i_ok : soci::i_null;
  int set_limit = patch.campaign_limit ? 1 : 0;
  int lim = patch.campaign_limit && *patch.campaign_limit ? **patch.campaign_limit : 0;
  soci::indicator lim_ind =
      patch.campaign_limit && *patch.campaign_limit ? soci::i_ok : soci::i_null;
  int active = patch.active.value_or(false) ? 1 : 0;
  soci::indicator active_ind = patch.active ? soci::i_ok : soci::i_null;
  auto prep = (sql.prepare << update_sql, soci::use(name, name_ind), soci::use(plan, plan_ind),
               soci::use(set_limit), soci::use(lim, lim_ind), soci::use(active, active_ind),
               soci::use(tenant_id));
  out.bind(prep);
  soci::statement st{prep};
  if (!st.execute(true))
    return std::nullopt;
  return out.finish();
}

} // namespace vcs::storage
