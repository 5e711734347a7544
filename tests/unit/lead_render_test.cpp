// A lead as the list renders it with its dial state: the calling rule that
// holds it, with its source, or null.
#include "domain/calling_rules.hpp"
#include "http/render/render.hpp"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>

namespace {

using namespace vcs;

rapidjson::Document rendered(const std::optional<domain::lead_dial_view>& view) {
  domain::lead l;
  l.phone_number = "+14155550100";
  l.custom_fields_json = R"({"state":"CA"})";
  http::json_out out;
  http::render_lead(out, l, &view);
  rapidjson::Document d;
  d.Parse(out.take().c_str());
  return d;
}

TEST(lead_render, a_held_lead_names_the_rule_its_jurisdiction_and_its_source) {
  const auto& rules = domain::calling_rules().rules;
  const auto rule =
      std::find_if(rules.begin(), rules.end(), [](const auto& r) { return r.id == "us-fl-hours"; });
  ASSERT_NE(rule, rules.end());
  domain::lead_dial_view view{domain::dial_state::outside_legal_hours,
                              *domain::parse_iso8601("2030-01-03T13:00:00Z"), &*rule};
  auto d = rendered(view);
  ASSERT_TRUE(d.IsObject());
  EXPECT_STREQ(d["dial_state"].GetString(), "outside_legal_hours");
  EXPECT_STREQ(d["next_dial_at"].GetString(), "2030-01-03T13:00:00.000000+00:00");
  const auto& r = d["dial_rule"];
  ASSERT_TRUE(r.IsObject());
  EXPECT_STREQ(r["id"].GetString(), "us-fl-hours");
  EXPECT_STREQ(r["jurisdiction"].GetString(), "US-FL");
  EXPECT_STREQ(r["kind"].GetString(), "hours");
  EXPECT_EQ(r["source"]["url"].GetString(), rule->source_url);
  EXPECT_EQ(r["source"]["title"].GetString(), rule->source_title);
}

TEST(lead_render, a_lead_no_rule_holds_has_a_null_rule) {
  auto d = rendered(domain::lead_dial_view{domain::dial_state::eligible, std::nullopt, nullptr});
  EXPECT_TRUE(d["dial_rule"].IsNull());
  auto gone = rendered(std::nullopt);
  EXPECT_TRUE(gone["dial_state"].IsNull());
  EXPECT_TRUE(gone["dial_rule"].IsNull());
}

} // namespace
