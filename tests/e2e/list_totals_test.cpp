// The lists the service adds to the contract (campaigns, calls, webhook
// deliveries) count at most 10,000 matching rows: past that, `total` is
// 10,000 and `total_capped` true, so a page costs the same however many
// rows match. The contract's lists count every row.
#include "domain/global_id.hpp"
#include "json_helpers.hpp"
#include "service_fixture.hpp"
#include "service_process.hpp"
#include "storage/database.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <memory>
#include <string>

namespace vcs::test {
namespace {

class list_totals_test : public service_test {
protected:
  rapidjson::Document get(const std::string& target, const std::string& key) {
    auto r = pub("GET", target, key);
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }

  std::unique_ptr<soci::session> sql = storage::open_session(database_url());
};

TEST_F(list_totals_test, calls_past_ten_thousand_say_so_and_fewer_are_exact) {
  auto t = create_tenant();
  auto r = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"many calls"})");
  ASSERT_EQ(r.status, 201u) << r.body;
  const auto campaign = str(parse(r.body)["data"], "campaign_id");
  const auto campaign_row = *domain::decode_global_id(domain::entity::campaign, campaign);
  const auto tenant_row = tenant_db_id(t);
  *sql << "INSERT INTO calls (tenant_id, campaign_id, lead_id, phone_number, attempt, status, "
          "outcome, node_id, ended_at) SELECT :t, :c, g, '+14155550100', 1, 'COMPLETED', "
          "CASE WHEN g <= 3 THEN 'busy' ELSE 'human' END, 'test', now() "
          "FROM generate_series(1, 10001) g",
      soci::use(tenant_row, "t"), soci::use(campaign_row, "c");

  auto all = get("/api/v2/voice-campaigns/" + campaign + "/calls?page_size=1", t.key);
  EXPECT_EQ(all["meta"]["total"].GetInt64(), 10'000);
  EXPECT_TRUE(all["meta"]["total_capped"].GetBool());
  EXPECT_EQ(all["data"].Size(), 1u);

  auto busy = get("/api/v2/voice-campaigns/" + campaign + "/calls?outcome=busy", t.key);
  EXPECT_EQ(busy["meta"]["total"].GetInt64(), 3);
  EXPECT_FALSE(busy["meta"]["total_capped"].GetBool());

  auto campaigns = get("/api/v2/voice-campaigns", t.key);
  EXPECT_EQ(campaigns["meta"]["total"].GetInt64(), 1);
  EXPECT_FALSE(campaigns["meta"]["total_capped"].GetBool());

  auto deliveries = get("/api/v2/webhook-deliveries", t.key);
  EXPECT_EQ(deliveries["meta"]["total"].GetInt64(), 0);
  EXPECT_FALSE(deliveries["meta"]["total_capped"].GetBool());

  // A contract list counts every row and has no such member.
  auto requests = get("/api/v2/external-billing/payment-requests", t.key);
  EXPECT_FALSE(requests["meta"].HasMember("total_capped"));
}

} // namespace
} // namespace vcs::test
