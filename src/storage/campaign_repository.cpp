#include "storage/campaign_repository.hpp"

#include "domain/global_id.hpp"
#include "domain/plan.hpp"

#include "storage/nullable.hpp"
#include "storage/prepared.hpp"

#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr const char* campaign_columns =
    "id, tenant_id, name, type, status, assistant_id, voice_provider_id, dialer_type, "
    "provider_a_calling_entity, phone_number_id, phone_number_pool_id, start_date, end_date, "
    "timezone, days_of_week, daily_start_time, daily_end_time, max_call_attempts, "
    "max_daily_attempts, min_gap_between_attempts, consider_voicemail_as_answered::int, "
    "webhook_url, lead_count, created_at, updated_at, lead_local_time::int";

constexpr const char* quota_sql =
    "SELECT plan, campaign_limit FROM tenants WHERE id = :t FOR UPDATE";
constexpr const char* count_sql =
    "SELECT count(*) FROM campaigns WHERE tenant_id = :t AND status <> 'ENDED'";

const std::string insert_sql =
    std::string{"INSERT INTO campaigns (tenant_id, name, type, assistant_id, voice_provider_id, "
                "dialer_type, provider_a_calling_entity, phone_number_id, phone_number_pool_id, "
                "start_date, end_date, timezone, days_of_week, daily_start_time, daily_end_time, "
                "max_call_attempts, max_daily_attempts, min_gap_between_attempts, "
                "consider_voicemail_as_answered, webhook_url, lead_local_time) VALUES (:t, :name, "
                "coalesce(:type, 'OUTBOUND'), :assistant, :vp, :dialer, :entity, :pn, :pool, "
                ":sd::date, :ed::date, :tz, :days::text[], :dst, :det, :mca, :mda, :gap, "
                "coalesce(:vm::int::boolean, false), :hook, coalesce(:llt::int::boolean, false)) "
                "RETURNING "} +
    campaign_columns;

const std::string select_sql =
    std::string{"SELECT "} + campaign_columns + " FROM campaigns WHERE tenant_id = :t AND id = :id";

const std::string update_sql =
    std::string{
        "UPDATE campaigns SET name = coalesce(:name, name), "
        "assistant_id = coalesce(:assistant, assistant_id), "
        "voice_provider_id = coalesce(:vp, voice_provider_id), "
        "dialer_type = coalesce(:dialer, dialer_type), "
        "phone_number_id = coalesce(:pn, phone_number_id), "
        "phone_number_pool_id = coalesce(:pool, phone_number_pool_id), "
        "timezone = coalesce(:tz, timezone), "
        "days_of_week = coalesce(:days::text[], days_of_week), "
        "daily_start_time = coalesce(:dst, daily_start_time), "
        "daily_end_time = coalesce(:det, daily_end_time), "
        "max_call_attempts = coalesce(:mca, max_call_attempts), "
        "max_daily_attempts = coalesce(:mda, max_daily_attempts), "
        "min_gap_between_attempts = coalesce(:gap, min_gap_between_attempts), "
        "consider_voicemail_as_answered = "
        "coalesce(:vm::int::boolean, consider_voicemail_as_answered), "
        "webhook_url = coalesce(:hook, webhook_url), "
        "lead_local_time = coalesce(:llt::int::boolean, lead_local_time), updated_at = now() "
        "WHERE tenant_id = :t AND id = :id RETURNING "} +
    campaign_columns;

const std::string status_sql = std::string{"UPDATE campaigns SET status = :s, updated_at = now() "
                                           "WHERE tenant_id = :t AND id = :id RETURNING "} +
                               campaign_columns;

// Campaign ids in assignments are stored as canonical global ids.
constexpr const char* blocking_sql =
    "SELECT s.status FROM assigned_resources ar "
    "JOIN account_configurations ac ON ac.tenant_id = ar.tenant_id "
    "AND ac.id = ar.account_configuration_id "
    "JOIN subscriptions s ON s.tenant_id = ac.tenant_id AND s.client_id = ac.client_id "
    "WHERE ar.tenant_id = :t AND ar.resource_kind = 'campaign' AND ar.resource_id = :gid "
    "AND s.status IN ('past_due', 'blocked') ORDER BY s.id LIMIT 1";

constexpr prepared_statement lock_stmt{
    "vcs_lock_campaign", "SELECT 1 FROM campaigns WHERE tenant_id = $1 AND id = $2 FOR UPDATE"};

// "{MONDAY,FRIDAY}" <-> {"MONDAY", "FRIDAY"}; day names need no quoting.
std::string to_pg_array(const std::vector<std::string>& items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0)
      out += ',';
    out += items[i];
  }
  return out + "}";
}

std::vector<std::string> from_pg_array(const std::string& text) {
  std::vector<std::string> out;
  if (text.size() < 2)
    return out;
  std::string item;
  for (std::size_t i = 1; i + 1 < text.size(); ++i) {
    if (text[i] == ',') {
      out.push_back(std::move(item));
      item.clear();
    } else if (text[i] != '"') {
      item += text[i];
    }
  }
  if (!item.empty())
    out.push_back(std::move(item));
  return out;
}

// A nullable text column or parameter.

template <class T> struct opt_num {
  T value{};
  soci::indicator ind = soci::i_null;

  opt_num() = default;
  explicit opt_num(const std::optional<T>& v)
      : value(v.value_or(T{})), ind(v ? soci::i_ok : soci::i_null) {}
  std::optional<T> get() const {
    return ind == soci::i_ok ? std::optional<T>{value} : std::nullopt;
  }
};

// Parameters shared by insert and update, from the given fields.
struct campaign_params {
  nullable_text name, type, assistant, dialer, entity, pn, pool, sd, ed, tz, days, dst, det, hook;
  nullable<int64_t> vp;
  nullable<int> mca, mda, gap, vm, llt;

  explicit campaign_params(const domain::campaign_fields& f)
      : name(f.name), type(f.type), assistant(f.assistant_id), dialer(f.dialer_type),
        entity(f.provider_a_calling_entity), pn(f.phone_number_id), pool(f.phone_number_pool_id),
        sd(f.start_date), ed(f.end_date), tz(f.timezone),
        days(f.days_of_week ? std::optional<std::string>{to_pg_array(*f.days_of_week)}
                            : std::nullopt),
        dst(f.daily_start_time), det(f.daily_end_time), hook(f.webhook_url),
        vp(f.voice_provider_id), mca(f.max_call_attempts), mda(f.max_daily_attempts),
        gap(f.min_gap_between_attempts),
        vm(f.consider_voicemail_as_answered
               ? std::optional<int>{*f.consider_voicemail_as_answered ? 1 : 0}
               : std::nullopt),
        llt(f.lead_local_time ? std::optional<int>{*f.lead_local_time ? 1 : 0} : std::nullopt) {}
};

// The output columns of `campaign_columns`.
struct campaign_row {
  domain::campaign c;
  std::string type, status, created_at, updated_at;
  nullable_text assistant, dialer, entity, pn, pool, sd, ed, tz, days, dst, det, hook;
  nullable<int64_t> vp;
  nullable<int> mca, mda, gap;
  int vm = 0;
  int llt = 0;

  void bind(soci::details::prepare_temp_type& st) {
    st, soci::into(c.id), soci::into(c.tenant_id), soci::into(c.name), soci::into(type),
        soci::into(status), soci::into(assistant.value, assistant.ind),
        soci::into(vp.value, vp.ind), soci::into(dialer.value, dialer.ind),
        soci::into(entity.value, entity.ind), soci::into(pn.value, pn.ind),
        soci::into(pool.value, pool.ind), soci::into(sd.value, sd.ind),
        soci::into(ed.value, ed.ind), soci::into(tz.value, tz.ind),
        soci::into(days.value, days.ind), soci::into(dst.value, dst.ind),
        soci::into(det.value, det.ind), soci::into(mca.value, mca.ind),
        soci::into(mda.value, mda.ind), soci::into(gap.value, gap.ind), soci::into(vm),
        soci::into(hook.value, hook.ind), soci::into(c.lead_count), soci::into(created_at),
        soci::into(updated_at), soci::into(llt);
  }

  domain::campaign finish() {
    auto s = domain::parse_campaign_status(status);
    auto created = domain::parse_pg_timestamp(created_at);
    auto updated = domain::parse_pg_timestamp(updated_at);
    if (!s || !created || !updated)
      throw std::runtime_error("unreadable campaign row");
    c.type = type;
    c.status = *s;
    c.assistant_id = assistant.get();
    c.voice_provider_id = vp.get();
    c.dialer_type = dialer.get();
    c.provider_a_calling_entity = entity.get();
    c.phone_number_id = pn.get();
    c.phone_number_pool_id = pool.get();
    c.start_date = sd.get();
    c.end_date = ed.get();
    c.timezone = tz.get();
    if (auto d = days.get())
      c.days_of_week = from_pg_array(*d);
    c.daily_start_time = dst.get();
    c.daily_end_time = det.get();
    if (auto v = mca.get())
      c.max_call_attempts = *v;
    if (auto v = mda.get())
      c.max_daily_attempts = *v;
    if (auto v = gap.get())
      c.min_gap_between_attempts = *v;
    c.consider_voicemail_as_answered = vm != 0;
    c.webhook_url = hook.get();
    c.lead_local_time = llt != 0;
    c.created_at = *created;
    c.updated_at = *updated;
    return c;
  }
};

domain::campaign expect_row(soci::statement& st, campaign_row& row) {
  if (!st.execute(true))
    throw std::runtime_error("campaign row vanished inside its transaction");
  return row.finish();
}

} // namespace

std::optional<campaign_quota> lock_campaign_quota(soci::session& sql, int64_t tenant_id) {
  std::string plan;
  int limit = 0;
  soci::indicator limit_ind = soci::i_null;
  soci::statement st = (sql.prepare << quota_sql, soci::use(tenant_id), soci::into(plan),
                        soci::into(limit, limit_ind));
  if (!st.execute(true))
    return std::nullopt;
  auto p = domain::parse_plan(plan);
  if (!p)
    throw std::runtime_error("unreadable tenant plan");
  campaign_quota q;
  q.limit = limit_ind == soci::i_ok ? limit : domain::default_campaign_limit(*p);
  sql << count_sql, soci::use(tenant_id), soci::into(q.used);
  return q;
}

domain::campaign insert_campaign(soci::session& sql, int64_t tenant_id,
                                 const domain::campaign_fields& fields) {
  campaign_params p{fields};
  campaign_row row;
  auto prep = (sql.prepare << insert_sql, soci::use(tenant_id), soci::use(p.name.value, p.name.ind),
               soci::use(p.type.value, p.type.ind), soci::use(p.assistant.value, p.assistant.ind),
               soci::use(p.vp.value, p.vp.ind), soci::use(p.dialer.value, p.dialer.ind),
               soci::use(p.entity.value, p.entity.ind), soci::use(p.pn.value, p.pn.ind),
               soci::use(p.pool.value, p.pool.ind), soci::use(p.sd.value, p.sd.ind),
               soci::use(p.ed.value, p.ed.ind), soci::use(p.tz.value, p.tz.ind),
               soci::use(p.days.value, p.days.ind), soci::use(p.dst.value, p.dst.ind),
               soci::use(p.det.value, p.det.ind), soci::use(p.mca.value, p.mca.ind),
               soci::use(p.mda.value, p.mda.ind), soci::use(p.gap.value, p.gap.ind),
               soci::use(p.vm.value, p.vm.ind), soci::use(p.hook.value, p.hook.ind),
               soci::use(p.llt.value, p.llt.ind));
  row.bind(prep);
  soci::statement st{prep};
  return expect_row(st, row);
}

std::optional<domain::campaign> find_campaign(soci::session& sql, int64_t tenant_id,
                                              int64_t campaign_id, bool for_update) {
  campaign_row row;
  auto text = for_update ? select_sql + " FOR UPDATE" : select_sql;
  auto prep = (sql.prepare << text, soci::use(tenant_id), soci::use(campaign_id));
  row.bind(prep);
  soci::statement st{prep};
  if (!st.execute(true))
    return std::nullopt;
  return row.finish();
}

domain::campaign update_campaign(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                 const domain::campaign_fields& fields) {
  campaign_params p{fields};
  campaign_row row;
  auto prep = (sql.prepare << update_sql, soci::use(p.name.value, p.name.ind),
               soci::use(p.assistant.value, p.assistant.ind), soci::use(p.vp.value, p.vp.ind),
               soci::use(p.dialer.value, p.dialer.ind), soci::use(p.pn.value, p.pn.ind),
               soci::use(p.pool.value, p.pool.ind), soci::use(p.tz.value, p.tz.ind),
               soci::use(p.days.value, p.days.ind), soci::use(p.dst.value, p.dst.ind),
               soci::use(p.det.value, p.det.ind), soci::use(p.mca.value, p.mca.ind),
               soci::use(p.mda.value, p.mda.ind), soci::use(p.gap.value, p.gap.ind),
               soci::use(p.vm.value, p.vm.ind), soci::use(p.hook.value, p.hook.ind),
               soci::use(p.llt.value, p.llt.ind), soci::use(tenant_id), soci::use(campaign_id));
  row.bind(prep);
  soci::statement st{prep};
  return expect_row(st, row);
}

domain::campaign set_campaign_status(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                     domain::campaign_status status) {
  std::string s{domain::to_string(status)};
  campaign_row row;
  auto prep =
      (sql.prepare << status_sql, soci::use(s), soci::use(tenant_id), soci::use(campaign_id));
  row.bind(prep);
  soci::statement st{prep};
  return expect_row(st, row);
}

bool lock_campaign(soci::session& sql, int64_t tenant_id, int64_t campaign_id) {
  return execute(sql, lock_stmt, {tenant_id, campaign_id}).size() > 0;
}

std::optional<std::string> blocking_subscription_status(soci::session& sql, int64_t tenant_id,
                                                        int64_t campaign_id) {
  auto gid = domain::encode_global_id(domain::entity::campaign, campaign_id);
  std::string status;
  soci::indicator ind = soci::i_null;
  sql << blocking_sql, soci::use(tenant_id), soci::use(gid), soci::into(status, ind);
  if (!sql.got_data() || ind != soci::i_ok)
    return std::nullopt;
  return status;
}

} // namespace vcs::storage
