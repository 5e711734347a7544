// Bulk imports as a tenant reads them: the campaign's imports, each one's
// rejected items with their index, phone number and reason, and bulk add
// sent as CSV.

#include "service_fixture.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace vcs::test {
namespace {

class import_test : public service_test {
protected:
  void SetUp() override {
    t = create_tenant();
    auto r = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"imports"})");
    ASSERT_EQ(r.status, 201u) << r.body;
    base = "/api/v2/voice-campaigns/" + str(parse(r.body)["data"], "campaign_id");
  }

  http_response get(const std::string& path) { return pub("GET", base + path, t.key); }

  http_response csv(const std::string& body) {
    return public_client.request(
        "POST", base + "/leads/bulk", body,
        {{"Authorization", "Bearer " + t.key}, {"Content-Type", "text/csv; charset=utf-8"}});
  }

  // Adds a bulk body and waits until its import is done (bounded).
  rapidjson::Document import(const std::string& body) {
    auto r = pub("POST", base + "/leads/bulk", t.key, body);
    EXPECT_EQ(r.status, 200u) << r.body.substr(0, 300);
    return wait_import(str(parse(r.body), "import_id"));
  }

  rapidjson::Document wait_import(const std::string& import_id) {
    return service_test::wait_import(base, t.key, import_id);
  }

  rapidjson::Document rejected(const std::string& import_id, const std::string& query = "") {
    auto r = get("/leads/imports/" + import_id + "/rejected-rows" + query);
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }

  // The campaign's leads by phone number.
  std::map<std::string, rapidjson::Document> leads() {
    auto r = get("/leads/list?limit=200");
    EXPECT_EQ(r.status, 200u) << r.body;
    std::map<std::string, rapidjson::Document> out;
    auto d = parse(r.body);
    for (auto& l : d["leads"].GetArray()) {
      rapidjson::Document one;
      one.CopyFrom(l, one.GetAllocator());
      out.emplace(str(l, "phone_number"), std::move(one));
    }
    return out;
  }

  static std::string phone(int i) { return "+1415555" + std::to_string(1000 + i); }

  tenant_info t;
  std::string base;
};

TEST_F(import_test, each_item_not_imported_is_listed_with_its_index_and_reason) {
  auto first = pub("POST", base + "/leads", t.key, R"({"phone_number":")" + phone(3) + "\"}");
  ASSERT_EQ(first.status, 201u) << first.body;
  auto r = pub("POST", base + "/leads/bulk", t.key,
               R"([{"phone_number":")" + phone(0) + R"("},{"phone_number":"not-a-number"},)" +
                   R"({"phone_number":")" + phone(0) + R"(","first_name":"again"},)" +
                   R"({"phone_number":")" + phone(3) + R"("},{"email":"x@y.io"},)" +
                   R"({"phone_number":")" + phone(5) + R"("}])");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto answer = parse(r.body);
  EXPECT_EQ(answer["queued"].GetInt(), 3) << "the repeat is left out before the job is stored";
  EXPECT_EQ(answer["invalid"].GetInt(), 2);
  EXPECT_EQ(answer["duplicates"].GetInt(), 1);
  auto id = str(answer, "import_id");
  auto job = wait_import(id);
  EXPECT_EQ(job["accepted"].GetInt(), 6);
  EXPECT_EQ(job["inserted"].GetInt(), 2);
  EXPECT_EQ(job["duplicates"].GetInt(), 2);
  EXPECT_EQ(job["rejected"].GetInt(), 4);
  EXPECT_EQ(job["pending"].GetInt(), 0);

  auto all = rejected(id);
  EXPECT_EQ(all["meta"]["total"].GetInt64(), 4);
  const auto& rows = all["data"];
  ASSERT_EQ(rows.Size(), 4u) << all["data"].Size();
  struct expected {
    int index;
    const char* reason;
  };
  const expected want[] = {
      {1, "invalid"}, {2, "duplicate_in_request"}, {3, "already_in_campaign"}, {4, "invalid"}};
  for (rapidjson::SizeType i = 0; i < 4; ++i) {
    EXPECT_EQ(rows[i]["index"].GetInt(), want[i].index);
    EXPECT_EQ(str(rows[i], "reason"), want[i].reason) << i;
  }
  EXPECT_EQ(str(rows[0], "phone_number"), "not-a-number");
  EXPECT_NE(str(rows[0], "message").find("E.164"), std::string::npos) << str(rows[0], "message");
  EXPECT_EQ(str(rows[1], "phone_number"), phone(0));
  EXPECT_EQ(str(rows[1], "message"), "Repeats the phone number of item 0.");
  EXPECT_EQ(str(rows[2], "phone_number"), phone(3));
  EXPECT_TRUE(rows[3]["phone_number"].IsNull());
  EXPECT_EQ(str(rows[3], "message"), "phone_number: This field is required.");
  // The earlier item of a repeat is the one imported.
  EXPECT_EQ(str(leads()[phone(0)], "first_name"), "");

  auto invalid = rejected(id, "?reason=invalid");
  EXPECT_EQ(invalid["meta"]["total"].GetInt64(), 2);
  EXPECT_EQ(invalid["data"][1]["index"].GetInt(), 4);
  auto second = rejected(id, "?page=2&page_size=1");
  EXPECT_EQ(second["data"].Size(), 1u);
  // Page 2 of one row each is the second rejection by index: item 2.
  EXPECT_EQ(second["data"][0]["index"].GetInt(), 2);
  EXPECT_EQ(second["meta"]["page_size"].GetInt(), 1);
  EXPECT_EQ(get("/leads/imports/" + id + "/rejected-rows?reason=other").status, 400u);
  EXPECT_EQ(get("/leads/imports/" + id + "/rejected-rows?page=0").status, 400u);
}

TEST_F(import_test, rows_of_later_chunks_already_in_the_campaign_are_listed_too) {
  // Two chunks (5,000 rows and 201), each inserted by a transaction of its
  // own next to the job's; the last item, in the second chunk, meets a
  // lead added before.
  auto first = pub("POST", base + "/leads", t.key, R"({"phone_number":"+14155559999"})");
  ASSERT_EQ(first.status, 201u) << first.body;
  std::string body = "[";
  for (int i = 0; i < 5200; ++i)
    body += R"({"phone_number":"+1628)" + std::to_string(2000000 + i) + "\"},";
  body += R"({"phone_number":"+14155559999"}])";
  auto job = import(body);
  EXPECT_EQ(job["inserted"].GetInt(), 5200);
  EXPECT_EQ(job["duplicates"].GetInt(), 1);
  auto rows = rejected(str(job, "import_id"));
  ASSERT_EQ(rows["meta"]["total"].GetInt64(), 1);
  EXPECT_EQ(rows["data"][0]["index"].GetInt(), 5200);
  EXPECT_EQ(str(rows["data"][0], "reason"), "already_in_campaign");
  EXPECT_EQ(str(rows["data"][0], "phone_number"), "+14155559999");
}

// A body that the two parallel chunks take whole (5,000 rows and 300) is
// answered once they are in: the next list has every row, and the import
// is done.
TEST_F(import_test, a_body_of_two_chunks_is_listed_when_answered) {
  std::string body = "[";
  for (int i = 0; i < 5300; ++i)
    body += std::string{i > 0 ? "," : ""} + R"({"phone_number":"+1628)" +
            std::to_string(3000000 + i) + "\"}";
  body += "]";
  auto r = pub("POST", base + "/leads/bulk", t.key, body);
  ASSERT_EQ(r.status, 200u) << r.body.substr(0, 300);
  auto page = parse(get("/leads/list?limit=1").body);
  EXPECT_EQ(page["page_info"]["total_count"].GetInt(), 5300);
  auto job = parse(get("/leads/imports/" + str(parse(r.body), "import_id")).body);
  EXPECT_EQ(str(job, "status"), "done") << str(job, "status");
  EXPECT_EQ(job["inserted"].GetInt(), 5300);
}

TEST_F(import_test, the_campaigns_imports_are_listed_newest_first) {
  auto a = import(R"([{"phone_number":")" + phone(1) + "\"}]");
  auto b = import(R"([{"phone_number":")" + phone(2) + R"("},{"phone_number":"x"}])");
  auto r = get("/leads/imports");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(d["meta"]["total"].GetInt64(), 2);
  ASSERT_EQ(d["data"].Size(), 2u);
  EXPECT_EQ(str(d["data"][0], "import_id"), str(b, "import_id"));
  EXPECT_EQ(str(d["data"][1], "import_id"), str(a, "import_id"));
  EXPECT_EQ(d["data"][0]["rejected"].GetInt(), 1);
  auto done = parse(get("/leads/imports?status=done&page_size=1").body);
  EXPECT_EQ(done["meta"]["total"].GetInt64(), 2);
  EXPECT_EQ(done["data"].Size(), 1u);
  EXPECT_EQ(parse(get("/leads/imports?status=failed").body)["meta"]["total"].GetInt64(), 0);
  auto bad = get("/leads/imports?status=finished");
  EXPECT_EQ(bad.status, 400u) << bad.body;

  // Another tenant sees neither the campaign's imports nor their rows.
  auto other = create_tenant();
  EXPECT_EQ(pub("GET", base + "/leads/imports", other.key).status, 404u);
  EXPECT_EQ(pub("GET", base + "/leads/imports/" + str(a, "import_id") + "/rejected-rows", other.key)
                .status,
            404u);
  auto missing = get("/leads/imports/TGVhZEltcG9ydDo5OTk5OTk5/rejected-rows");
  EXPECT_EQ(missing.status, 404u);
  EXPECT_EQ(str(parse(missing.body), "message"), "Import not found");
}

TEST_F(import_test, operators_see_every_tenants_imports_with_the_node_holding_each) {
  auto a = import(R"([{"phone_number":")" + phone(1) + R"("},{"phone_number":"x"}])");
  auto other = create_tenant();
  auto c = pub("POST", "/api/v2/voice-campaigns", other.key, R"({"name":"other"})");
  ASSERT_EQ(c.status, 201u) << c.body;
  auto other_base = "/api/v2/voice-campaigns/" + str(parse(c.body)["data"], "campaign_id");
  auto r = pub("POST", other_base + "/leads/bulk", other.key,
               R"([{"phone_number":")" + phone(2) + "\"}]");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto b = service_test::wait_import(other_base, other.key, str(parse(r.body), "import_id"));

  // Newest first across tenants, each with its tenant and the tenant's view.
  auto all = op("GET", "/admin/v1/imports?limit=1000");
  ASSERT_EQ(all.status, 200u) << all.body;
  auto d = parse(all.body);
  std::vector<std::string> order;
  for (auto& j : d["imports"].GetArray())
    order.push_back(str(j["import"], "import_id"));
  auto pos_a = std::find(order.begin(), order.end(), str(a, "import_id"));
  auto pos_b = std::find(order.begin(), order.end(), str(b, "import_id"));
  ASSERT_NE(pos_a, order.end());
  ASSERT_NE(pos_b, order.end());
  EXPECT_LT(pos_b, pos_a);
  const auto& first = d["imports"][static_cast<rapidjson::SizeType>(pos_a - order.begin())];
  EXPECT_EQ(str(first, "tenant_id"), t.id);
  EXPECT_EQ(str(first["import"], "status"), "done");
  EXPECT_EQ(first["import"]["inserted"].GetInt(), 1);
  EXPECT_EQ(first["import"]["invalid"].GetInt(), 1);
  EXPECT_TRUE(first.HasMember("attempts"));
  EXPECT_TRUE(first.HasMember("claimed_by"));

  // One tenant, by global or plain id; one status.
  auto mine = parse(op("GET", "/admin/v1/imports?tenant_id=" + t.id).body);
  ASSERT_EQ(mine["imports"].Size(), 1u);
  EXPECT_EQ(str(mine["imports"][0]["import"], "import_id"), str(a, "import_id"));
  auto plain =
      parse(op("GET", "/admin/v1/imports?tenant_id=" + std::to_string(tenant_db_id(other))).body);
  ASSERT_EQ(plain["imports"].Size(), 1u);
  EXPECT_EQ(str(plain["imports"][0]["import"], "import_id"), str(b, "import_id"));
  EXPECT_EQ(
      parse(op("GET", "/admin/v1/imports?status=failed&tenant_id=" + t.id).body)["imports"].Size(),
      0u);
  EXPECT_EQ(op("GET", "/admin/v1/imports?limit=1").status, 200u);
  EXPECT_EQ(parse(op("GET", "/admin/v1/imports?limit=1").body)["imports"].Size(), 1u);

  // Bad filters are refused by name; an unknown tenant is not found.
  EXPECT_EQ(op("GET", "/admin/v1/imports?status=finished").status, 400u);
  EXPECT_EQ(op("GET", "/admin/v1/imports?tenant_id=nope").status, 400u);
  EXPECT_EQ(op("GET", "/admin/v1/imports?limit=0").status, 400u);
  auto unknown = op("GET", "/admin/v1/imports?tenant_id=99999999");
  EXPECT_EQ(unknown.status, 404u);
  EXPECT_EQ(str(parse(unknown.body), "message"), "Tenant not found");
  // Not on the public listener, even with a key.
  EXPECT_EQ(pub("GET", "/admin/v1/imports", t.key).status, 404u);
}

TEST_F(import_test, a_csv_body_is_read_as_the_json_lead_input) {
  // A byte-order mark, CRLF line ends, a quoted comma, a doubled quote, a
  // line break inside quotes, and empty cells (absent fields).
  const std::string body =
      "\xEF\xBB\xBFphone_number,first_name,email,custom_fields.crm_id,custom_fields.note\r\n" +
      phone(10) + ",Ada,ada@example.com,A-1,\"says \"\"hi\"\", twice\"\r\n" + phone(11) +
      ",,,B-2,\"two\nlines\"\r\n" + phone(12) + ",Bo,,,\r\n" + "not-a-number,X,,,\r\n" + phone(10) +
      ",Again,,,\r\n";
  auto r = csv(body);
  ASSERT_EQ(r.status, 200u) << r.body;
  auto answer = parse(r.body);
  EXPECT_EQ(answer["queued"].GetInt(), 3);
  EXPECT_EQ(answer["invalid"].GetInt(), 1);
  EXPECT_EQ(answer["duplicates"].GetInt(), 1);
  auto job = wait_import(str(answer, "import_id"));
  EXPECT_EQ(job["inserted"].GetInt(), 3);
  auto all = leads();
  ASSERT_EQ(all.size(), 3u);
  auto& ada = all[phone(10)];
  EXPECT_EQ(str(ada, "first_name"), "Ada");
  EXPECT_EQ(str(ada, "email"), "ada@example.com");
  EXPECT_EQ(str(ada["custom_fields"], "crm_id"), "A-1");
  EXPECT_EQ(str(ada["custom_fields"], "note"), "says \"hi\", twice");
  EXPECT_EQ(str(all[phone(11)]["custom_fields"], "note"), "two\nlines");
  EXPECT_FALSE(all[phone(12)]["custom_fields"].HasMember("crm_id"));
  auto rows = rejected(str(job, "import_id"));
  ASSERT_EQ(rows["data"].Size(), 2u);
  EXPECT_EQ(rows["data"][0]["index"].GetInt(), 3) << "indexes count data rows from 0";
  EXPECT_EQ(str(rows["data"][1], "reason"), "duplicate_in_request");
}

TEST_F(import_test, a_malformed_csv_body_is_refused_whole) {
  auto refused = [&](const std::string& body, const std::string& says) {
    auto r = csv(body);
    EXPECT_EQ(r.status, 400u) << body << " " << r.body;
    EXPECT_NE(r.body.find(says), std::string::npos) << r.body;
    // A broken CSV's detail is in `errors`, as documented.
    auto d = parse(r.body);
    if (str(d, "message") == "Invalid CSV") {
      ASSERT_TRUE(d.HasMember("errors") && d["errors"].IsArray()) << r.body;
      EXPECT_FALSE(d.HasMember("error")) << r.body;
    }
  };
  refused("phone,first_name\n+14155551000,A\n", "'phone' is not a lead field");
  refused("first_name\nA\n", "the phone_number column is required");
  refused("phone_number,phone_number\n+14155551000,+14155551001\n", "appears twice");
  refused("phone_number,first_name\n+14155551000\n", "line 2: 1 cells where the header has 2");
  refused("phone_number\n\"+14155551000\n", "a quoted field is not closed");
  refused("phone_number\n+1415\"5551000\n", "a field with a quote must be quoted whole");
  refused("phone_number,first_name\n+14155551000,\xff\xfe\n", "UTF-8");
  refused("phone_number\n", "Request body must be a non-empty list");
  refused("", "Request body must be a non-empty list");
  std::string over = "phone_number\n";
  for (int i = 0; i <= 100000; ++i)
    over += "+1628" + std::to_string(2000000 + i) + "\n";
  refused(over, "Request body may hold at most 100000 items");
  EXPECT_EQ(parse(get("/leads/imports").body)["meta"]["total"].GetInt64(), 0);
}

} // namespace
} // namespace vcs::test
