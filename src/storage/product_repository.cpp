#include "storage/product_repository.hpp"

#include "storage/prepared.hpp"

#include <cctype>

namespace vcs::storage {

namespace {

constexpr prepared_statement insert_product_stmt{
    "vcs_insert_product",
    "INSERT INTO products (tenant_id, processor_product_id, name, pricing_model, "
    "min_minutes_included, additional_minute_price, trial_days, trial_minutes) "
    "VALUES ($1, $2, $3, $4, $5::numeric, $6::numeric, $7, $8::numeric) "
    "ON CONFLICT DO NOTHING RETURNING id, created_at"};

constexpr prepared_statement insert_price_stmt{
    "vcs_insert_price",
    "INSERT INTO prices (tenant_id, product_id, processor_price_id, billing_type, usage_type, "
    "unit_amount, currency, \"interval\") VALUES ($1, $2, $3, $4, $5, $6::numeric, upper($7), "
    "$8) ON CONFLICT DO NOTHING RETURNING id"};

constexpr prepared_statement find_product_stmt{
    "vcs_find_product",
    "SELECT id, processor_product_id, name, pricing_model, min_minutes_included, "
    "additional_minute_price, trial_days, trial_minutes, created_at FROM products "
    "WHERE tenant_id = $1 AND processor_product_id = $2"};
namespace product_col {
enum : int {
  id,
  processor_product_id,
  name,
  pricing_model,
  min_minutes_included,
  additional_minute_price,
  trial_days,
  trial_minutes,
  created_at
};
}

constexpr prepared_statement find_prices_stmt{
    "vcs_find_product_prices",
    "SELECT id, processor_price_id, billing_type, usage_type, unit_amount, currency, \"interval\", "
    "active FROM prices WHERE tenant_id = $1 AND product_id = $2 ORDER BY id"};
namespace price_col {
enum : int {
  id,
  processor_price_id,
  billing_type,
  usage_type,
  unit_amount,
  currency,
  interval,
  active
};
}

} // namespace

std::optional<domain::product> insert_product(soci::session& sql, int64_t tenant_id,
                                              const domain::product& p) {
  domain::product out = p;
  auto row =
      execute(sql, insert_product_stmt,
              {tenant_id, p.processor_product_id, p.name, p.pricing_model, p.min_minutes_included,
               p.additional_minute_price, p.trial_days, p.trial_minutes});
  if (row.size() == 0)
    return std::nullopt;
  out.id = row.int64(0, 0);
  out.created_at = row.timestamp(0, 1);
  for (auto& price : out.prices) {
    auto added = execute(sql, insert_price_stmt,
                         {tenant_id, out.id, price.processor_price_id, price.billing_type,
                          price.usage_type, price.unit_amount, price.currency, price.interval});
    if (added.size() == 0)
      return std::nullopt;
    price.id = added.int64(0, 0);
    for (auto& c : price.currency)
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<domain::product> find_product(soci::session& sql, int64_t tenant_id,
                                            const std::string& processor_product_id) {
  auto row = execute(sql, find_product_stmt, {tenant_id, processor_product_id});
  if (row.size() == 0)
    return std::nullopt;
  domain::product p;
  p.id = row.int64(0, product_col::id);
  p.processor_product_id = row.text(0, product_col::processor_product_id);
  p.name = row.text(0, product_col::name);
  p.pricing_model = row.text(0, product_col::pricing_model);
  p.min_minutes_included = row.text(0, product_col::min_minutes_included);
  p.additional_minute_price = row.text(0, product_col::additional_minute_price);
  p.trial_days = row.int32(0, product_col::trial_days);
  p.trial_minutes = row.text(0, product_col::trial_minutes);
  p.created_at = row.timestamp(0, product_col::created_at);
  auto prices = execute(sql, find_prices_stmt, {tenant_id, p.id});
  for (int i = 0; i < prices.size(); ++i) {
    domain::price price;
    price.id = prices.int64(i, price_col::id);
    price.processor_price_id = prices.text(i, price_col::processor_price_id);
    price.billing_type = prices.opt_text(i, price_col::billing_type);
    price.usage_type = prices.opt_text(i, price_col::usage_type);
    price.unit_amount = prices.opt_text(i, price_col::unit_amount);
    price.currency = prices.text(i, price_col::currency);
    price.interval = prices.opt_text(i, price_col::interval);
    price.active = prices.boolean(i, price_col::active);
    p.prices.push_back(std::move(price));
  }
  return p;
}

} // namespace vcs::storage
