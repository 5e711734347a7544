// The CSV exports, GET /api/v2/voice-campaigns/{campaign_id}/calls/export
// and .../leads/export: every call the filters match, or every lead, as RFC
// 4180 CSV streamed in chunks, oldest first, free text kept from running as a
// spreadsheet formula; the routes' scope is the lists' (another tenant's
// campaign 404, one outside a key's campaigns 403).

#include "eventually.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <string>
#include <vector>

namespace vcs::test {
namespace {

// A CSV text's rows of fields (RFC 4180: quoted fields may hold commas,
// doubled quotes and line breaks; rows end with CRLF).
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
      ++i;
    } else {
      field += c;
    }
  }
  EXPECT_TRUE(field.empty() && row.empty()) << "the last row ends with CRLF";
  return rows;
}

class csv_export_test : public service_test {
protected:
  void SetUp() override {
    t = create_tenant();
    auto p = pub("POST", "/api/v2/voice-pod", t.key, R"({"voice_provider":"simulated"})");
    ASSERT_EQ(p.status, 201u) << p.body;
    provider = str(parse(p.body)["data"], "voice_provider_id");
    campaign = make_campaign();
    auto lead = pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads", t.key,
                    R"({"phone_number":"+14155552671"})");
    ASSERT_EQ(lead.status, 201u) << lead.body;
  }

  std::string make_campaign() {
    auto r = pub("POST", "/api/v2/voice-campaigns", t.key,
                 R"({"name":"export","assistant_id":"a","phone_number_id":"pn_1",)"
                 R"("tenant_voice_provider_id":")" +
                     provider + R"("})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }

  // `count` calls of the campaign's lead, written as the dialer writes them:
  // odd attempts busy, even ones answered; the first one's report holds a
  // formula, quotes, a comma and a line break.
  void insert_calls(int count) {
    auto sql = storage::open_session(database_url());
    long long tenant = tenant_db_id(t);
    *sql << "INSERT INTO calls (tenant_id, campaign_id, lead_id, phone_number, attempt, status, "
            "outcome, node_id, duration_seconds, summary, structured_data, ended_at) "
            "SELECT l.tenant_id, l.campaign_id, l.id, l.phone_number, g, 'COMPLETED', "
            "CASE WHEN g % 2 = 1 THEN 'busy' ELSE 'human' END, 'test', g % 90, "
            "CASE WHEN g = 1 THEN '=HYPERLINK(\"https://evil.example\"),\"quoted\"' || chr(10) || "
            "'line' END, CASE WHEN g = 1 THEN '{\"a\":\"b,c\"}'::jsonb END, now() "
            "FROM leads l, generate_series(1, :n) g WHERE l.tenant_id = :t",
        soci::use(count), soci::use(tenant);
  }

  http_response export_calls(const std::string& query = {}) {
    return pub("GET", "/api/v2/voice-campaigns/" + campaign + "/calls/export" + query, t.key);
  }

  tenant_info t;
  std::string provider;
  std::string campaign;
};

TEST_F(csv_export_test, every_call_is_a_row_oldest_first_in_chunks) {
  // More than two of the export's batches.
  insert_calls(1201);
  auto r = export_calls();
  ASSERT_EQ(r.status, 200u) << r.body.substr(0, 300);
  EXPECT_EQ(r.header("content-type"), "text/csv; charset=utf-8");
  EXPECT_EQ(r.header("transfer-encoding"), "chunked");
  EXPECT_EQ(r.header("content-disposition"), "attachment; filename=\"calls-" + campaign + ".csv\"");
  EXPECT_EQ(r.header("cache-control"), "no-store");
  auto rows = parse_csv(r.body);
  ASSERT_EQ(rows.size(), 1202u);
  const auto& header = rows[0];
  ASSERT_EQ(header.size(), 20u);
  EXPECT_EQ(header[0], "call_id");
  EXPECT_EQ(header[6], "outcome");
  EXPECT_EQ(header[15], "summary");
  EXPECT_EQ(header[18], "structured_data");
  long long previous = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), header.size()) << "row " << i;
    auto id = std::stoll(rows[i][0]);
    EXPECT_GT(id, previous) << "oldest first";
    previous = id;
    EXPECT_EQ(rows[i][2], "+14155552671");
    EXPECT_EQ(rows[i][4], std::to_string(i));
    EXPECT_EQ(rows[i][6], i % 2 == 1 ? "busy" : "human");
  }
  // The provider's text as it came, but kept from running as a formula.
  EXPECT_EQ(rows[1][15], "'=HYPERLINK(\"https://evil.example\"),\"quoted\"\nline");
  EXPECT_EQ(rows[1][18], R"({"a": "b,c"})");
  EXPECT_EQ(rows[2][15], "");
  // The list counts the same calls.
  auto listed = parse(pub("GET", "/api/v2/voice-campaigns/" + campaign + "/calls", t.key).body);
  EXPECT_EQ(listed["meta"]["total"].GetInt(), 1201);
}

// A client that goes away mid-export stops it: its worker is free again and
// the node serves on.
TEST_F(csv_export_test, a_client_that_leaves_mid_export_stops_it) {
  insert_calls(5000);
  for (int i = 0; i < 4; ++i) {
    http_client leaving{"127.0.0.1", svc.public_port()};
    leaving.send_raw("GET /api/v2/voice-campaigns/" + campaign +
                     "/calls/export HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + t.key +
                     "\r\n\r\n");
  }
  // Whole exports go on beside them.
  auto r = export_calls("?outcome=human");
  ASSERT_EQ(r.status, 200u);
  EXPECT_EQ(parse_csv(r.body).size(), 2501u);
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns/" + campaign, t.key).status, 200u);
}

TEST_F(csv_export_test, the_lists_filters_apply) {
  insert_calls(9);
  auto busy = parse_csv(export_calls("?outcome=busy").body);
  ASSERT_EQ(busy.size(), 6u);
  for (std::size_t i = 1; i < busy.size(); ++i)
    EXPECT_EQ(busy[i][6], "busy");
  EXPECT_EQ(parse_csv(export_calls("?outcome=busy&status=FAILED").body).size(), 1u)
      << "no call matches: the header row alone";
  EXPECT_EQ(parse_csv(export_calls("?from=2999-01-01T00:00:00Z").body).size(), 1u);
  auto refused = export_calls("?outcome=hangup");
  EXPECT_EQ(refused.status, 400u);
  EXPECT_NE(refused.body.find("Invalid outcome: 'hangup'"), std::string::npos) << refused.body;
  EXPECT_EQ(export_calls("?to=yesterday").status, 400u);
}

TEST_F(csv_export_test, another_tenants_campaign_is_not_found_and_a_keys_scope_holds) {
  insert_calls(2);
  auto other = create_tenant();
  auto theirs = pub("GET", "/api/v2/voice-campaigns/" + campaign + "/calls/export", other.key);
  EXPECT_EQ(theirs.status, 404u) << theirs.body;
  auto second = make_campaign();
  auto key = pub("POST", "/api/v2/api-keys", t.key,
                 R"({"name":"held","campaign_ids":[")" + second + R"("]})");
  ASSERT_EQ(key.status, 201u) << key.body;
  auto held = str(parse(key.body)["data"], "key");
  auto outside = pub("GET", "/api/v2/voice-campaigns/" + campaign + "/calls/export", held);
  EXPECT_EQ(outside.status, 403u) << outside.body;
  EXPECT_NE(outside.body.find("no access to this campaign"), std::string::npos) << outside.body;
  auto inside = pub("GET", "/api/v2/voice-campaigns/" + second + "/calls/export", held);
  EXPECT_EQ(inside.status, 200u) << inside.body;
  EXPECT_EQ(parse_csv(inside.body).size(), 1u);
}

TEST_F(csv_export_test, every_lead_is_a_row_in_the_order_they_were_added) {
  // The one lead of SetUp, then more than two batches through the bulk route.
  std::string bulk = "[";
  for (int i = 0; i < 1100; ++i)
    bulk += std::string{i ? "," : ""} + R"({"phone_number":"+1415556)" + std::to_string(1000 + i) +
            R"(","first_name":"Lead )" + std::to_string(i) + R"(","custom_fields":{"n":)" +
            std::to_string(i) + "}}";
  bulk += "]";
  auto added = pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads/bulk", t.key, bulk);
  ASSERT_EQ(added.status / 100, 2u) << added.body;
  auto named = pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads", t.key,
                   R"({"phone_number":"+14155559999","first_name":"=cmd|' /C calc'!A0",)"
                   R"("last_name":"O'Brien, Jr."})");
  ASSERT_EQ(named.status, 201u) << named.body;
  std::vector<std::vector<std::string>> rows;
  ASSERT_TRUE(eventually([&] {
    auto r = pub("GET", "/api/v2/voice-campaigns/" + campaign + "/leads/export", t.key);
    if (r.status != 200)
      return false;
    rows = parse_csv(r.body);
    return rows.size() == 1103u;
  })) << rows.size();
  const auto& header = rows[0];
  ASSERT_EQ(header.size(), 20u);
  EXPECT_EQ(header[1], "phone_number");
  EXPECT_EQ(header[6], "custom_fields");
  EXPECT_EQ(rows[1][1], "+14155552671");
  for (int i = 0; i < 1100; ++i) {
    const auto& row = rows[static_cast<std::size_t>(i) + 2];
    ASSERT_EQ(row.size(), header.size());
    EXPECT_EQ(row[1], "+1415556" + std::to_string(1000 + i));
    EXPECT_EQ(row[2], "Lead " + std::to_string(i));
    EXPECT_EQ(row[6], R"({"n": )" + std::to_string(i) + "}");
    EXPECT_EQ(row[7], "IDLE");
  }
  const auto& last = rows.back();
  EXPECT_EQ(last[2], "'=cmd|' /C calc'!A0");
  EXPECT_EQ(last[3], "O'Brien, Jr.");
  // Another tenant's campaign is not found.
  auto other = create_tenant();
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns/" + campaign + "/leads/export", other.key).status,
            404u);
}

} // namespace
} // namespace vcs::test
