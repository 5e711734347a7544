// Operator plane: the tenant's billing catalog.

#include "service_fixture.hpp"

namespace vcs::test {
namespace {

class product_test : public service_test {};

const char* gold = R"({"product_id":"prod_gold","name":"Gold","pricing_model":"flat_plus_usage",
  "min_minutes_included":1000,"additional_minute_price":"0.0125","trial_days":14,"trial_minutes":60.5,
  "prices":[{"price_id":"price_gold_m","billing_type":"recurring","usage_type":"licensed",
             "unit_amount":199.99,"currency":"usd","interval":"month"},
            {"price_id":"price_gold_min","usage_type":"metered","unit_amount":"0.0125","currency":"USD"}]})";

TEST_F(product_test, creates_a_product_with_exact_decimals) {
  auto t = create_tenant();
  auto r = op("POST", "/admin/v1/tenants/" + t.id + "/products", gold);
  ASSERT_EQ(r.status, 201u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "product_id"), "prod_gold");
  EXPECT_EQ(str(d, "name"), "Gold");
  EXPECT_EQ(str(d, "min_minutes_included"), "1000");
  EXPECT_EQ(str(d, "additional_minute_price"), "0.0125");
  EXPECT_EQ(d["trial_days"].GetInt(), 14);
  EXPECT_EQ(str(d, "trial_minutes"), "60.5");
  ASSERT_EQ(d["prices"].Size(), 2u);
  EXPECT_EQ(str(d["prices"][0], "price_id"), "price_gold_m");
  EXPECT_EQ(str(d["prices"][0], "unit_amount"), "199.99");
  EXPECT_EQ(str(d["prices"][0], "currency"), "USD");
  EXPECT_EQ(str(d["prices"][0], "interval"), "month");
  EXPECT_TRUE(d["prices"][0]["active"].GetBool());
  EXPECT_TRUE(d["prices"][1]["interval"].IsNull());
  EXPECT_FALSE(str(d["prices"][1], "id").empty());
}

TEST_F(product_test, duplicate_product_or_price_id_is_a_conflict) {
  auto t = create_tenant();
  ASSERT_EQ(op("POST", "/admin/v1/tenants/" + t.id + "/products", gold).status, 201u);
  EXPECT_EQ(op("POST", "/admin/v1/tenants/" + t.id + "/products", gold).status, 409u);
  // Another tenant's catalog is separate.
  auto other = create_tenant();
  EXPECT_EQ(op("POST", "/admin/v1/tenants/" + other.id + "/products", gold).status, 201u);
}

// A price id the catalog already has refuses the whole product: its row,
// written before the price was refused, is not kept.
TEST_F(product_test, a_taken_price_id_refuses_the_whole_product) {
  auto t = create_tenant();
  ASSERT_EQ(op("POST", "/admin/v1/tenants/" + t.id + "/products", gold).status, 201u);
  const std::string silver_with = R"({"product_id":"prod_silver","name":"Silver",
    "pricing_model":"flat_plus_usage","min_minutes_included":100,"additional_minute_price":"0.02",
    "prices":[{"price_id":")";
  const std::string tail = R"(","usage_type":"metered","unit_amount":"0.02","currency":"USD"}]})";
  auto taken =
      op("POST", "/admin/v1/tenants/" + t.id + "/products", silver_with + "price_gold_min" + tail);
  EXPECT_EQ(taken.status, 409u) << taken.body;
  EXPECT_EQ(str(parse(taken.body), "message"),
            "The catalog already has this product_id or price_id");
  // prod_silver was not kept: it can be created now with a price id of its own.
  auto fresh = op("POST", "/admin/v1/tenants/" + t.id + "/products",
                  silver_with + "price_silver_min" + tail);
  EXPECT_EQ(fresh.status, 201u) << fresh.body;
}

TEST_F(product_test, validation_names_each_field) {
  auto t = create_tenant();
  auto r = op("POST", "/admin/v1/tenants/" + t.id + "/products",
              R"({"min_minutes_included":-1,"additional_minute_price":"0.12345","trial_days":400,
                  "prices":[{"price_id":"a","currency":"DOLLARS","interval":"fortnight","unit_amount":"x"},
                            {"price_id":"a","currency":"EUR"}, 7]})");
  ASSERT_EQ(r.status, 400u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "message"), "Validation error");
  for (const char* f :
       {"product_id", "name", "pricing_model", "min_minutes_included", "additional_minute_price",
        "trial_days", "prices[0].currency", "prices[0].interval", "prices[0].unit_amount",
        "prices[1].price_id", "prices[2]"})
    EXPECT_TRUE(d["errors"].HasMember(f)) << f << " " << r.body;
  auto none = op("POST", "/admin/v1/tenants/" + t.id + "/products",
                 R"({"product_id":"p","name":"n","pricing_model":"m","min_minutes_included":0,
                     "additional_minute_price":0,"prices":[]})");
  EXPECT_EQ(none.status, 400u);
  EXPECT_TRUE(parse(none.body)["errors"].HasMember("prices"));
}

TEST_F(product_test, unknown_tenant_and_missing_token) {
  EXPECT_EQ(op("POST", "/admin/v1/tenants/VGVuYW50Ojk5OTk5OTk=/products", gold).status, 404u);
  auto t = create_tenant();
  EXPECT_EQ(operator_client.request("POST", "/admin/v1/tenants/" + t.id + "/products", gold).status,
            401u);
}

} // namespace
} // namespace vcs::test
