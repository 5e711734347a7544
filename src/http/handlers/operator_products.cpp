#include "domain/billing.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lookup.hpp"

#include <set>

namespace vcs::http::handlers {

namespace {

void render_product(json_out& out, const domain::product& p) {
  out.w().StartObject();
  out.field("id", std::to_string(p.id));
  out.field("product_id", p.processor_product_id);
  out.field("name", p.name);
  out.field("pricing_model", p.pricing_model);
  out.field("min_minutes_included", p.min_minutes_included);
  out.field("additional_minute_price", p.additional_minute_price);
  out.field("trial_days", p.trial_days);
  out.field("trial_minutes", p.trial_minutes);
  out.key("prices");
  out.w().StartArray();
  for (const auto& pr : p.prices) {
    out.w().StartObject();
    out.field("id", std::to_string(pr.id));
    out.field("price_id", pr.processor_price_id);
    out.field("billing_type", pr.billing_type);
    out.field("usage_type", pr.usage_type);
    out.field("unit_amount", pr.unit_amount);
    out.field("currency", pr.currency);
    out.field("interval", pr.interval);
    out.field("active", pr.active);
    out.w().EndObject();
  }
  out.w().EndArray();
  out.field("created_at", domain::format_utc(p.created_at));
  out.w().EndObject();
}

// One price object; problems go under "prices[i].<field>".
std::optional<domain::price> read_price(const rapidjson::Value& v, std::size_t i,
                                        domain::field_errors& errors) {
  auto prefix = "prices[" + std::to_string(i) + "]";
  if (!v.IsObject()) {
    errors.add(prefix, "Must be an object.");
    return std::nullopt;
  }
  domain::field_errors own;
  object_reader in{v, own};
  domain::price p;
  auto id = in.string("price_id", true, 255);
  p.billing_type = in.string("billing_type", false, 32);
  p.usage_type = in.string("usage_type", false, 32);
  p.unit_amount = in.decimal("unit_amount", false, 4);
  auto currency = in.string("currency", true, 3);
  if (currency && !domain::is_currency(*currency))
    own.add("currency", "Enter a 3-letter currency code.");
  p.interval = in.string("interval", false, 16);
  if (p.interval && !std::set<std::string>{"day", "week", "month", "year"}.count(*p.interval))
    own.add("interval", "Must be one of day, week, month, year.");
  errors.merge(prefix, own);
  if (!own.empty())
    return std::nullopt;
  p.processor_price_id = *id;
  p.currency = *currency;
  return p;
}

// POST /admin/v1/tenants/{tenant_id}/products: through the tenant actor.
class create_product_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    domain::product p;
    auto id = in.string("product_id", true, 255);
    auto name = in.string("name", true, 255);
    auto model = in.string("pricing_model", true, 64);
    auto min = in.decimal("min_minutes_included", true, 2);
    auto extra = in.decimal("additional_minute_price", true, 4);
    auto days = in.integer("trial_days", false, 0, 365);
    auto minutes = in.decimal("trial_minutes", false, 2);
    auto prices = body->FindMember("prices");
    if (prices == body->MemberEnd() || !prices->value.IsArray() || prices->value.Empty()) {
      errors.add("prices", "Provide a non-empty list of prices.");
    } else {
      std::set<std::string> seen;
      for (rapidjson::SizeType i = 0; i < prices->value.Size(); ++i) {
        const auto& v = prices->value[i];
        if (v.IsObject() && v.HasMember("price_id") && v["price_id"].IsString() &&
            !seen.insert(v["price_id"].GetString()).second)
          errors.add("prices[" + std::to_string(i) + "].price_id", "Duplicate price_id.");
        if (auto price = read_price(v, i, errors))
          p.prices.push_back(std::move(*price));
      }
    }
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    p.processor_product_id = *id;
    p.name = *name;
    p.pricing_model = *model;
    p.min_minutes_included = *min;
    p.additional_minute_price = *extra;
    p.trial_days = static_cast<int32_t>(days.value_or(0));
    p.trial_minutes = minutes.value_or("0");
    ask_tenant<domain::product>(
        ctx.self, ex, t->id,
        [ex](domain::product& created) {
          json_out out;
          render_product(out, created);
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::create_atom::value, std::move(p)));
  }
};

} // namespace

std::shared_ptr<handler> create_product() {
  return std::make_shared<create_product_handler>();
}

} // namespace vcs::http::handlers
