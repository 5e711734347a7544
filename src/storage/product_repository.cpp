#include "storage/product_repository.hpp"

#include "storage/nullable.hpp"

#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr const char* insert_product_sql =
    "INSERT INTO products (tenant_id, processor_product_id, name, pricing_model, "
    "min_minutes_included, additional_minute_price, trial_days, trial_minutes) "
    "VALUES (:t, :pid, :name, :model, :min::numeric, :add::numeric, :td, :tm::numeric) "
    "RETURNING id, created_at";

constexpr const char* insert_price_sql =
    "INSERT INTO prices (tenant_id, product_id, processor_price_id, billing_type, usage_type, "
    "unit_amount, currency, \"interval\") VALUES (:t, :p, :pid, :bt, :ut, :ua::numeric, "
    "upper(:cur), "
    ":iv) RETURNING id";

constexpr const char* find_product_sql =
    "SELECT id, processor_product_id, name, pricing_model, min_minutes_included, "
    "additional_minute_price, trial_days, trial_minutes, created_at FROM products "
    "WHERE tenant_id = :t AND processor_product_id = :pid";

constexpr const char* find_prices_sql =
    "SELECT id, processor_price_id, billing_type, usage_type, unit_amount, currency, \"interval\", "
    "active::int FROM prices WHERE tenant_id = :t AND product_id = :p ORDER BY id";

} // namespace

domain::product insert_product(soci::session& sql, int64_t tenant_id, const domain::product& p) {
  domain::product out = p;
  std::string created;
  sql << insert_product_sql, soci::use(tenant_id), soci::use(p.processor_product_id),
      soci::use(p.name), soci::use(p.pricing_model), soci::use(p.min_minutes_included),
      soci::use(p.additional_minute_price), soci::use(p.trial_days), soci::use(p.trial_minutes),
      soci::into(out.id), soci::into(created);
  out.created_at = timestamp_column(created);
  for (auto& price : out.prices) {
    nullable_text bt{price.billing_type}, ut{price.usage_type}, ua{price.unit_amount},
        iv{price.interval};
    sql << insert_price_sql, soci::use(tenant_id), soci::use(out.id),
        soci::use(price.processor_price_id), soci::use(bt.value, bt.ind),
        soci::use(ut.value, ut.ind), soci::use(ua.value, ua.ind), soci::use(price.currency),
        soci::use(iv.value, iv.ind), soci::into(price.id);
    for (auto& c : price.currency)
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<domain::product> find_product(soci::session& sql, int64_t tenant_id,
                                            const std::string& processor_product_id) {
  domain::product p;
  std::string created;
  soci::statement st =
      (sql.prepare << find_product_sql, soci::use(tenant_id), soci::use(processor_product_id),
       soci::into(p.id), soci::into(p.processor_product_id), soci::into(p.name),
       soci::into(p.pricing_model), soci::into(p.min_minutes_included),
       soci::into(p.additional_minute_price), soci::into(p.trial_days), soci::into(p.trial_minutes),
       soci::into(created));
  if (!st.execute(true))
    return std::nullopt;
  p.created_at = timestamp_column(created);
  domain::price price;
  nullable_text bt, ut, ua, iv;
  int active = 1;
  soci::statement prices =
      (sql.prepare << find_prices_sql, soci::use(tenant_id), soci::use(p.id), soci::into(price.id),
       soci::into(price.processor_price_id), soci::into(bt.value, bt.ind),
       soci::into(ut.value, ut.ind), soci::into(ua.value, ua.ind), soci::into(price.currency),
       soci::into(iv.value, iv.ind), soci::into(active));
  prices.execute();
  while (prices.fetch()) {
    price.billing_type = bt.get();
    price.usage_type = ut.get();
    price.unit_amount = ua.get();
    price.interval = iv.get();
    price.active = active != 0;
    p.prices.push_back(price);
  }
  return p;
}

} // namespace vcs::storage
