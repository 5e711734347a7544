// Leads: add, bulk add (durable, asynchronous), list, bulk update and
// removal, v1 update and removal.

#include "domain/call_state.hpp"
#include "domain/global_id.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"
#include "storage/dialer_repository.hpp"

#include <soci/soci.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <thread>

namespace vcs::test {
namespace {

class lead_test : public service_test {
protected:
  void SetUp() override {
    t = create_tenant();
    auto r = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"leads"})");
    ASSERT_EQ(r.status, 201u) << r.body;
    campaign = str(parse(r.body)["data"], "campaign_id");
    base = "/api/v2/voice-campaigns/" + campaign;
  }

  http_response add(const std::string& body) { return pub("POST", base + "/leads", t.key, body); }

  rapidjson::Document wait_import(const std::string& import_id) {
    return service_test::wait_import(base, t.key, import_id);
  }

  rapidjson::Document list(const std::string& query = "") {
    auto r = pub("GET", base + "/leads/list" + query, t.key);
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }

  static std::string phone(int i) { return "+1415555" + std::to_string(1000 + i); }

  long long campaign_db_id() const {
    return domain::decode_global_id(domain::entity::campaign, campaign).value_or(0);
  }

  tenant_info t;
  std::string campaign;
  std::string base;
};

TEST_F(lead_test, add_lead_stores_every_field) {
  auto r = add(R"({"phone_number":"+14155552671","first_name":"Ann","last_name":"Lee",
                   "email":"ann@example.com","custom_fields":{"plan":"gold","n":3}})");
  ASSERT_EQ(r.status, 201u) << r.body;
  EXPECT_EQ(str(parse(r.body), "status"), "success");
  auto d = list();
  ASSERT_EQ(d["leads"].Size(), 1u);
  const auto& l = d["leads"][0];
  EXPECT_EQ(str(l, "phone_number"), "+14155552671");
  EXPECT_EQ(str(l, "first_name"), "Ann");
  EXPECT_EQ(str(l, "last_name"), "Lee");
  EXPECT_EQ(str(l, "email"), "ann@example.com");
  EXPECT_EQ(str(l, "source"), "API");
  EXPECT_EQ(str(l["custom_fields"], "plan"), "gold");
  EXPECT_EQ(l["custom_fields"]["n"].GetInt(), 3);
  EXPECT_EQ(str(l, "call_status"), "IDLE");
  EXPECT_TRUE(l["call_error_reason"].IsNull());
  EXPECT_FALSE(l["answered"].GetBool());
  EXPECT_EQ(str(l, "answer_type"), "");
  EXPECT_EQ(l["attempts_made"].GetInt(), 0);
  EXPECT_FALSE(l["do_not_call"].GetBool());
  EXPECT_FALSE(l["invalid"].GetBool());
  EXPECT_TRUE(l["invalid_reason"].IsNull());
  EXPECT_EQ(l["priority"].GetInt(), 0);
  EXPECT_TRUE(l["next_attempt_after"].IsNull());
  EXPECT_TRUE(l["answered_at"].IsNull());
  auto created = str(l, "created_at");
  EXPECT_EQ(created.size(), 32u) << created; // 2026-11-21T20:25:26.123456+00:00
  EXPECT_EQ(created.substr(26), "+00:00");
  EXPECT_TRUE(domain::decode_global_id(domain::entity::lead, str(l, "id")));
  EXPECT_EQ(d["page_info"]["total_count"].GetInt64(), 1);
}

TEST_F(lead_test, the_list_finds_one_lead_by_its_number) {
  ASSERT_EQ(add(R"({"phone_number":"+14155550181","first_name":"Ada"})").status, 201u);
  ASSERT_EQ(add(R"({"phone_number":"+14155550182","first_name":"Grace"})").status, 201u);
  auto found = pub("GET", base + "/leads/list?phone_number=%2B14155550182", t.key);
  ASSERT_EQ(found.status, 200u) << found.body;
  auto doc = parse(found.body);
  ASSERT_EQ(doc["leads"].Size(), 1u);
  EXPECT_EQ(str(doc["leads"][0], "first_name"), "Grace");
  EXPECT_EQ(doc["page_info"]["total_count"].GetInt(), 1);
  EXPECT_FALSE(doc["page_info"]["has_next_page"].GetBool());
  auto none = parse(pub("GET", base + "/leads/list?phone_number=%2B14155550199", t.key).body);
  EXPECT_EQ(none["leads"].Size(), 0u);
  EXPECT_EQ(none["page_info"]["total_count"].GetInt(), 0);
  // A "+" left unencoded is a space: the number is refused, saying why.
  auto plain = pub("GET", base + "/leads/list?phone_number=+14155550182", t.key);
  EXPECT_EQ(plain.status, 400u) << plain.body;
  EXPECT_NE(plain.body.find("%2B"), std::string::npos) << plain.body;
  // Another tenant's campaign has no such lead.
  auto other = create_tenant();
  EXPECT_EQ(pub("GET", base + "/leads/list?phone_number=%2B14155550182", other.key).status, 404u);
}

TEST_F(lead_test, add_lead_validation_lists_problems_in_error) {
  auto r = add(R"({"first_name":7,"email":"nope","custom_fields":[1]})");
  ASSERT_EQ(r.status, 400u);
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "message"), "Invalid data");
  ASSERT_TRUE(d["error"].IsArray());
  std::string all;
  for (const auto& e : d["error"].GetArray())
    all += std::string{e.GetString()} + "|";
  for (const char* field : {"phone_number", "first_name", "email", "custom_fields"})
    EXPECT_NE(all.find(field), std::string::npos) << field << " in " << all;
  for (const char* bad : {"4155552671", "+1 415 555 2671", "+0123456", "+", "+1415555267a"}) {
    auto x = add(std::string{R"({"phone_number":")"} + bad + "\"}");
    EXPECT_EQ(x.status, 400u) << bad;
  }
  EXPECT_EQ(add("[1]").status, 400u);
  EXPECT_EQ(add("not json").status, 400u);
}

TEST_F(lead_test, well_formed_but_invalid_number_is_stored_flagged) {
  ASSERT_EQ(add(R"({"phone_number":"+999123456789"})").status, 201u);
  auto d = list();
  ASSERT_EQ(d["leads"].Size(), 1u);
  EXPECT_TRUE(d["leads"][0]["invalid"].GetBool());
  EXPECT_FALSE(str(d["leads"][0], "invalid_reason").empty());
}

TEST_F(lead_test, duplicate_phone_in_campaign_is_a_conflict) {
  ASSERT_EQ(add(R"({"phone_number":"+14155552671"})").status, 201u);
  auto r = add(R"({"phone_number":"+14155552671","first_name":"Other"})");
  EXPECT_EQ(r.status, 409u);
  EXPECT_EQ(list()["page_info"]["total_count"].GetInt64(), 1);
  // The same number in another campaign is a different lead.
  auto other = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"other"})");
  auto other_id = str(parse(other.body)["data"], "campaign_id");
  EXPECT_EQ(pub("POST", "/api/v2/voice-campaigns/" + other_id + "/leads", t.key,
                R"({"phone_number":"+14155552671"})")
                .status,
            201u);
}

TEST_F(lead_test, lead_routes_of_unknown_or_foreign_campaigns_are_404) {
  auto stranger = create_tenant();
  for (auto [method, path, body] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"POST", "/leads", R"({"phone_number":"+14155552671"})"},
           {"POST", "/leads/bulk", R"([{"phone_number":"+14155552671"}])"},
           {"GET", "/leads/list", ""},
           {"PATCH", "/leads/update/bulk", R"([{"phone_number":"+14155552671"}])"},
           {"DELETE", "/leads/remove/bulk", R"([{"phone_number":"+14155552671"}])"}}) {
    auto r = pub(method, base + path, stranger.key, body);
    EXPECT_EQ(r.status, 404u) << method << path << r.body;
    EXPECT_EQ(str(parse(r.body), "message"), "Campaign not found");
  }
  auto v1 = pub("PATCH", "/v1/api/voice-campaigns/" + campaign + "/lead/update", stranger.key,
                R"({"tenant_id":")" + stranger.id + R"(","phone_number":"+14155552671"})");
  EXPECT_EQ(v1.status, 404u);
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns/bogus/leads/list", t.key).status, 404u);
}

TEST_F(lead_test, bulk_body_must_be_a_non_empty_list) {
  for (const char* path : {"/leads/bulk", "/leads/update/bulk", "/leads/remove/bulk"}) {
    std::string method = std::string{path} == "/leads/bulk"          ? "POST"
                         : std::string{path} == "/leads/update/bulk" ? "PATCH"
                                                                     : "DELETE";
    for (const char* body : {"[]", "{}", "\"x\"", "", "[1"}) {
      auto r = pub(method, base + path, t.key, body);
      EXPECT_EQ(r.status, 400u) << path << " " << body;
      EXPECT_EQ(str(parse(r.body), "message"), "Request body must be a non-empty list")
          << path << " " << body;
    }
  }
}

// Each bulk route takes a list of at most its cap, counted while the body is
// read: one item more is refused with that route's cap, before the rest of
// the body arrives, and nothing is imported or changed; at the cap the
// request is read and answered per item.
TEST_F(lead_test, a_bulk_list_over_its_cap_is_refused_while_its_body_is_read) {
  auto items = [](int n) {
    std::string out = "[";
    for (int i = 0; i < n; ++i)
      out += std::string{i ? "," : ""} + R"({"phone_number":"+1415)" + std::to_string(2000000 + i) +
             R"("})";
    return out;
  };
  auto refused = [&](const std::string& method, const std::string& path, int cap) {
    auto r = pub(method, base + path, t.key, items(cap + 1) + "]");
    EXPECT_EQ(r.status, 400u) << path << " " << r.body;
    EXPECT_EQ(str(parse(r.body), "message"),
              "Request body may hold at most " + std::to_string(cap) + " items")
        << path;
  };
  refused("POST", "/leads/bulk", 100000);
  refused("DELETE", "/leads/remove/bulk", 100000);
  refused("PATCH", "/leads/update/bulk", 1000);

  // The header promises 40 MB; the answer comes after the first 100,001
  // items (3.2 MB) without the rest.
  const std::string head = items(100001);
  http_client raw{"127.0.0.1", svc.public_port()};
  raw.send_raw("POST " + base + "/leads/bulk HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer " +
               t.key + "\r\nContent-Type: application/json\r\nContent-Length: 40000000\r\n\r\n" +
               head);
  auto early = raw.read_response();
  EXPECT_EQ(early.status, 400u) << early.body;
  EXPECT_EQ(str(parse(early.body), "message"), "Request body may hold at most 100000 items");
  EXPECT_TRUE(raw.closed_by_peer());

  EXPECT_EQ(list("?limit=1")["page_info"]["total_count"].GetInt64(), 0);
  auto sql = storage::open_session(database_url());
  const auto cid = campaign_db_id();
  long long jobs = -1;
  *sql << "SELECT count(*) FROM lead_import_jobs WHERE campaign_id = :c", soci::use(cid),
      soci::into(jobs);
  EXPECT_EQ(jobs, 0);

  auto at_cap = pub("PATCH", base + "/leads/update/bulk", t.key, items(1000) + "]");
  ASSERT_EQ(at_cap.status, 200u) << at_cap.body.substr(0, 300);
}

// A bulk body of a caller that cannot authenticate (no bearer token, or a
// token of no key) is not read: the header promises 40 MB, the 401 comes
// before it. A key is read from the header before the body, so a token the
// node has not seen is refused so too, the first time and again.
TEST_F(lead_test, a_bulk_body_without_a_known_key_is_refused_before_it_is_read) {
  for (const auto& [header, message] : std::vector<std::pair<std::string, std::string>>{
           {"", "Authorization header not found"},
           {"Authorization: Basic dXNlcjpwYXNz\r\n", "Invalid API key"},
           {"Authorization: Bearer vcs_no_such_key\r\n", "Invalid API key"},
           {"Authorization: Bearer vcs_no_such_key\r\n", "Invalid API key"}}) {
    http_client raw{"127.0.0.1", svc.public_port()};
    raw.send_raw("POST " + base + "/leads/bulk HTTP/1.1\r\nHost: test\r\n" + header +
                 "Content-Type: application/json\r\nContent-Length: 40000000\r\n\r\n[");
    auto early = raw.read_response();
    EXPECT_EQ(early.status, 401u) << early.body;
    EXPECT_EQ(str(parse(early.body), "message"), message);
    EXPECT_TRUE(raw.closed_by_peer());
  }
}

// The value bomb: one item whose custom_fields hold a huge array made the
// node parse the whole body (a 60 MB one took 1 GB) before the 16 KiB
// custom_fields cap refused the item. Each item's bytes and the body's JSON
// values are bounded while the body is read, so it is refused at the first
// byte past either bound, before it is parsed.
TEST_F(lead_test, a_value_bomb_is_refused_while_its_body_is_read) {
  std::string bomb = R"([{"phone_number":"+14155552671","custom_fields":{"x":[)";
  for (int i = 0; i < 200000; ++i)
    bomb += i ? ",0" : "0";
  bomb += "]}}]";
  auto r = pub("POST", base + "/leads/bulk", t.key, bomb);
  EXPECT_EQ(r.status, 400u) << r.body.substr(0, 300);
  EXPECT_EQ(str(parse(r.body), "message"), "Item 0 is larger than 65536 bytes");

  // Many small items, each under its bound: the body's values are counted.
  std::string many = "[";
  for (int i = 0; i < 70000; ++i)
    many += std::string{i ? "," : ""} +
            "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
            "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]";
  many += "]";
  auto values = pub("POST", base + "/leads/bulk", t.key, many);
  EXPECT_EQ(values.status, 400u) << values.body.substr(0, 300);
  EXPECT_EQ(str(parse(values.body), "message"),
            "Request body may hold at most 4000000 JSON values");
  EXPECT_EQ(list("?limit=1")["page_info"]["total_count"].GetInt64(), 0);
}

// A large body is read through a bigger buffer than its header was: sent
// with a length or in chunks of odd sizes, with the next request already
// behind it on the connection, every item arrives and the next request is
// answered from the bytes left in the buffer.
TEST_F(lead_test, large_bodies_arrive_whole_by_length_or_in_chunks_with_the_next_request_behind) {
  auto items = [](int from, int to) {
    std::string out = "[";
    for (int i = from; i < to; ++i)
      out += std::string{i > from ? "," : ""} + R"({"phone_number":")" + phone(i) + R"("})";
    return out + "]";
  };
  auto head = [&](const std::string& framing) {
    return "POST " + base + "/leads/bulk HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer " + t.key +
           "\r\nContent-Type: application/json\r\n" + framing + "\r\n";
  };
  const std::string next = "GET " + base + "/leads/list?limit=1 HTTP/1.1\r\nHost: test\r\n" +
                           "Authorization: Bearer " + t.key + "\r\n\r\n";
  http_client raw{"127.0.0.1", svc.public_port()};

  const auto by_length = items(0, 3000);
  raw.send_raw(head("Content-Length: " + std::to_string(by_length.size()) + "\r\n") + by_length +
               next);
  auto first = raw.read_response();
  ASSERT_EQ(first.status, 200u) << first.body;
  EXPECT_EQ(parse(first.body)["queued"].GetInt(), 3000);
  auto listed = raw.read_response();
  ASSERT_EQ(listed.status, 200u) << listed.body;
  EXPECT_EQ(parse(listed.body)["page_info"]["total_count"].GetInt64(), 3000);

  const auto chunked = items(3000, 6000);
  std::string framed = head("Transfer-Encoding: chunked\r\n");
  auto frame = [&](const std::string& piece) {
    char size[20];
    std::snprintf(size, sizeof size, "%zx\r\n", piece.size());
    framed += size + piece + "\r\n";
  };
  std::size_t at = 0;
  for (std::size_t size : {1u, 700u, 65536u, 9u, 20000u}) {
    frame(chunked.substr(at, size));
    at += size;
  }
  frame(chunked.substr(at));
  raw.send_raw(framed + "0\r\n\r\n" + next);
  auto second = raw.read_response();
  ASSERT_EQ(second.status, 200u) << second.body;
  EXPECT_EQ(parse(second.body)["queued"].GetInt(), 3000);
  listed = raw.read_response();
  ASSERT_EQ(listed.status, 200u) << listed.body;
  EXPECT_EQ(parse(listed.body)["page_info"]["total_count"].GetInt64(), 6000);
}

TEST_F(lead_test, bulk_add_imports_with_counts) {
  std::string body = "[";
  for (int i = 0; i < 2500; ++i)
    body += R"({"phone_number":")" + phone(i) + R"(","custom_fields":{"i":)" + std::to_string(i) +
            "}},";
  body += R"({"phone_number":"not-a-number"},{"phone_number":")" + phone(7) + R"("},)";
  body += R"({"email":"x@y.io"}])";
  auto r = pub("POST", base + "/leads/bulk", t.key, body);
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "status"), "success");
  EXPECT_EQ(d["invalid"].GetInt(), 2);
  EXPECT_EQ(d["duplicates"].GetInt(), 1);
  EXPECT_EQ(d["queued"].GetInt(), 2500);
  // Within one import chunk (5,000 rows), the rows went in with the job.
  EXPECT_EQ(list("?limit=1")["page_info"]["total_count"].GetInt64(), 2500);
  auto job = wait_import(str(d, "import_id"));
  EXPECT_EQ(job["accepted"].GetInt(), 2503);
  EXPECT_EQ(job["inserted"].GetInt(), 2500);
  EXPECT_EQ(job["duplicates"].GetInt(), 1);
  EXPECT_EQ(job["invalid"].GetInt(), 2);
  EXPECT_EQ(job["pending"].GetInt(), 0);
  EXPECT_FALSE(str(job, "finished_at").empty());
  auto page = list("?limit=1");
  EXPECT_EQ(page["page_info"]["total_count"].GetInt64(), 2500);
  auto sql = storage::open_session(database_url());
  long long chunks_left = -1, cid = campaign_db_id();
  *sql << "SELECT count(*) FROM lead_import_chunks c JOIN lead_import_jobs j ON j.id = c.job_id "
          "WHERE j.campaign_id = :c",
      soci::use(cid), soci::into(chunks_left);
  EXPECT_EQ(chunks_left, 0) << "each chunk's rows go with the transaction that inserted them";
  // The newest lead is the last one of the array that was inserted.
  EXPECT_EQ(str(page["leads"][0], "phone_number"), phone(2499));
}

TEST_F(lead_test, list_validates_limit_and_offset) {
  for (const char* q : {"?limit=0", "?limit=201", "?limit=abc", "?limit=-1", "?offset=-1",
                        "?offset=x", "?limit=1.5", "?limit=", "?offset=99999999999999999999"}) {
    auto r = pub("GET", base + "/leads/list" + q, t.key);
    EXPECT_EQ(r.status, 400u) << q;
  }
  auto d = list();
  EXPECT_EQ(d["page_info"]["limit"].GetInt(), 50);
  EXPECT_EQ(d["page_info"]["offset"].GetInt(), 0);
  EXPECT_FALSE(d["page_info"]["has_next_page"].GetBool());
  EXPECT_FALSE(d["page_info"]["has_previous_page"].GetBool());
  EXPECT_EQ(list("?limit=200&offset=0")["page_info"]["limit"].GetInt(), 200);
}

TEST_F(lead_test, pages_match_the_newest_first_order_at_every_offset_after_removals) {
  // 3000 leads span three position blocks; removals leave holes in them.
  std::string body = "[";
  for (int i = 0; i < 3000; ++i)
    body += std::string{i ? "," : ""} + R"({"phone_number":")" + phone(i) + "\"}";
  body += "]";
  auto r = pub("POST", base + "/leads/bulk", t.key, body);
  ASSERT_EQ(r.status, 200u);
  wait_import(str(parse(r.body), "import_id"));
  std::string removal = "[";
  for (int i = 0; i < 3000; i += 7)
    removal += std::string{i ? "," : ""} + R"({"phone_number":")" + phone(i) + "\"}";
  removal += "]";
  ASSERT_EQ(pub("DELETE", base + "/leads/remove/bulk", t.key, removal).status, 200u);

  auto sql = storage::open_session(database_url());
  auto cid = campaign_db_id();
  std::vector<std::string> expected(3000);
  soci::statement st = (sql->prepare << "SELECT phone_number FROM leads WHERE campaign_id = :c "
                                        "ORDER BY position DESC",
                        soci::use(cid), soci::into(expected));
  st.execute(true);
  ASSERT_EQ(expected.size(), 3000u - 429u);
  for (int offset : {0, 1, 49, 50, 877, 1023, 1024, 1025, 1500, 2047, 2100, 2500, 2540, 2570}) {
    auto page = list("?limit=37&offset=" + std::to_string(offset));
    EXPECT_EQ(page["page_info"]["total_count"].GetInt64(), static_cast<int64_t>(expected.size()));
    std::size_t want =
        std::min<std::size_t>(37, expected.size() - std::min<std::size_t>(offset, expected.size()));
    ASSERT_EQ(page["leads"].Size(), want) << offset;
    for (std::size_t i = 0; i < want; ++i)
      EXPECT_EQ(str(page["leads"][i], "phone_number"), expected[offset + i]) << offset << "+" << i;
    EXPECT_EQ(page["page_info"]["has_next_page"].GetBool(),
              static_cast<std::size_t>(offset) + 37 < expected.size());
    EXPECT_EQ(page["page_info"]["has_previous_page"].GetBool(), offset > 0);
  }
  EXPECT_EQ(list("?offset=5000")["leads"].Size(), 0u);
}

// Pages are kept rendered per node and served again while the campaign's
// leads version holds; every kind of lead change moves it, so the next list
// shows the change.
TEST_F(lead_test, a_kept_page_shows_every_lead_change_at_once) {
  auto cache_hits = [&] {
    auto m = op("GET", "/metrics");
    auto at = m.body.find("\nvcs_lead_page_cache_hits_total ");
    EXPECT_NE(at, std::string::npos);
    return std::stoll(m.body.substr(m.body.find(' ', at + 1) + 1));
  };
  auto names = [&](const std::string& query = "") {
    auto page = list(query);
    std::vector<std::string> out;
    for (const auto& l : page["leads"].GetArray())
      out.push_back(str(l, "phone_number") + "/" +
                    (l["first_name"].IsString() ? l["first_name"].GetString() : ""));
    out.push_back(std::to_string(page["page_info"]["total_count"].GetInt64()));
    return out;
  };
  using list_t = std::vector<std::string>;
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(add(R"({"phone_number":")" + phone(i) + "\"}").status, 201u);
  const list_t three{phone(2) + "/", phone(1) + "/", phone(0) + "/", "3"};
  EXPECT_EQ(names(), three);
  auto hits = cache_hits();
  EXPECT_EQ(names(), three);
  EXPECT_EQ(cache_hits(), hits + 1) << "an unchanged campaign's page is served as kept";
  EXPECT_EQ(names("?limit=1"), (list_t{phone(2) + "/", "3"})) << "each limit has its own page";

  ASSERT_EQ(add(R"({"phone_number":")" + phone(3) + "\"}").status, 201u);
  EXPECT_EQ(names("?limit=1"), (list_t{phone(3) + "/", "4"}));
  auto bulk_update = pub("PATCH", base + "/leads/update/bulk", t.key,
                         R"([{"phone_number":")" + phone(1) + R"(","first_name":"Bulk"}])");
  ASSERT_EQ(bulk_update.status, 200u) << bulk_update.body;
  EXPECT_EQ(names(),
            (list_t{phone(3) + "/", phone(2) + "/", phone(1) + "/Bulk", phone(0) + "/", "4"}));
  auto v1 = pub("PATCH", "/v1/api/voice-campaigns/" + campaign + "/lead/update", t.key,
                R"({"tenant_id":")" + t.id + R"(","phone_number":")" + phone(0) +
                    R"(","first_name":"V1"})");
  ASSERT_EQ(v1.status, 200u) << v1.body;
  EXPECT_EQ(names(),
            (list_t{phone(3) + "/", phone(2) + "/", phone(1) + "/Bulk", phone(0) + "/V1", "4"}));
  auto removal = pub("DELETE", base + "/leads/remove/bulk", t.key,
                     R"([{"phone_number":")" + phone(2) + "\"}]");
  ASSERT_EQ(removal.status, 200u) << removal.body;
  EXPECT_EQ(names(), (list_t{phone(3) + "/", phone(1) + "/Bulk", phone(0) + "/V1", "3"}));
  auto bulk = pub("POST", base + "/leads/bulk", t.key,
                  R"([{"phone_number":")" + phone(4) + R"(","first_name":"Imported"}])");
  ASSERT_EQ(bulk.status, 200u) << bulk.body;
  wait_import(str(parse(bulk.body), "import_id"));
  EXPECT_EQ(names("?limit=1"), (list_t{phone(4) + "/Imported", "4"}));
  EXPECT_EQ(names(), (list_t{phone(4) + "/Imported", phone(3) + "/", phone(1) + "/Bulk",
                             phone(0) + "/V1", "4"}));
}

TEST_F(lead_test, list_of_an_empty_campaign_and_of_another_tenants) {
  for (const char* q : {"", "?offset=10"}) {
    auto empty = list(q);
    EXPECT_EQ(empty["leads"].Size(), 0u);
    EXPECT_EQ(empty["page_info"]["total_count"].GetInt(), 0);
    EXPECT_FALSE(empty["page_info"]["has_next_page"].GetBool());
  }
  ASSERT_EQ(add(R"({"phone_number":"+14155550001"})").status, 201u);
  auto stranger = create_tenant();
  for (const char* q : {"", "?offset=1"}) {
    auto r = pub("GET", base + "/leads/list" + q, stranger.key);
    EXPECT_EQ(r.status, 404u) << q;
    EXPECT_EQ(str(parse(r.body), "message"), "Campaign not found");
  }
  EXPECT_EQ(list()["page_info"]["total_count"].GetInt(), 1);
}

// Many items go to the database as one statement: text survives it exactly,
// and a phone number sent twice is applied twice, in order.
TEST_F(lead_test, bulk_update_keeps_text_exact_and_applies_repeats_in_order) {
  for (int i = 1; i <= 3; ++i)
    ASSERT_EQ(add(R"({"phone_number":")" + phone(i) + "\"}").status, 201u);
  const std::string tricky = R"(Ann \"Q\" {x,y} \\ NULL é)";
  auto bulk = [&](const std::string& items) {
    auto r = pub("PATCH", base + "/leads/update/bulk", t.key, "[" + items + "]");
    EXPECT_EQ(r.status, 200u) << r.body;
    auto d = parse(r.body);
    for (const auto& item : d["results"].GetArray())
      EXPECT_TRUE(item["success"].GetBool()) << r.body;
  };
  // Distinct numbers: one statement.
  bulk(R"({"phone_number":")" + phone(1) + R"(","first_name":")" + tricky +
       R"(","custom_fields":{"note":")" + tricky + R"("}},
       {"phone_number":")" +
       phone(2) + R"(","last_name":"NULL"},
       {"phone_number":")" +
       phone(3) + R"(","custom_fields":{"a":1}})");
  // A repeated number: a second round, after the first.
  bulk(R"({"phone_number":")" + phone(3) + R"(","custom_fields":{"b":2}},
       {"phone_number":")" +
       phone(3) + R"(","custom_fields":{"c":3}})");
  auto page = list();
  std::map<std::string, const rapidjson::Value*> by_phone;
  for (const auto& l : page["leads"].GetArray())
    by_phone[str(l, "phone_number")] = &l;
  const auto& one = *by_phone.at(phone(1));
  EXPECT_EQ(str(one, "first_name"), R"(Ann "Q" {x,y} \ NULL é)");
  EXPECT_EQ(str(one["custom_fields"], "note"), R"(Ann "Q" {x,y} \ NULL é)");
  EXPECT_EQ(str(*by_phone.at(phone(2)), "last_name"), "NULL");
  EXPECT_EQ(str(*by_phone.at(phone(2)), "first_name"), "");
  const auto& three = *by_phone.at(phone(3));
  EXPECT_EQ(three["custom_fields"]["a"].GetInt(), 1);
  EXPECT_EQ(three["custom_fields"]["b"].GetInt(), 2);
  EXPECT_EQ(three["custom_fields"]["c"].GetInt(), 3);
}

TEST_F(lead_test, bulk_update_merges_fields_and_reports_each_item) {
  ASSERT_EQ(
      add(R"({"phone_number":"+14155550001","first_name":"A","custom_fields":{"k1":"v1"}})").status,
      201u);
  ASSERT_EQ(add(R"({"phone_number":"+14155550002"})").status, 201u);
  auto r = pub("PATCH", base + "/leads/update/bulk", t.key, R"([
    {"phone_number":"+14155550001","last_name":"B","custom_fields":{"k2":"v2"},"do_not_call":true},
    {"phone_number":"+14155559999","first_name":"ghost"},
    {"first_name":"no phone"},
    {"phone_number":"+14155550002","mark_as_unanswered":true},
    {"phone_number":"+14155550002","email":"bad"}
  ])");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "status"), "success");
  const auto& results = d["results"];
  ASSERT_EQ(results.Size(), 5u);
  for (rapidjson::SizeType i = 0; i < 5; ++i)
    EXPECT_EQ(results[i]["index"].GetInt(), static_cast<int>(i));
  EXPECT_TRUE(results[0]["success"].GetBool());
  EXPECT_EQ(str(results[0], "phone_number"), "+14155550001");
  EXPECT_FALSE(results[1]["success"].GetBool());
  EXPECT_EQ(str(results[1], "message"), "Lead not found");
  EXPECT_FALSE(results[2]["success"].GetBool());
  EXPECT_NE(str(results[2], "message").find("phone_number"), std::string::npos);
  EXPECT_FALSE(results[3]["success"].GetBool());
  EXPECT_EQ(str(results[3], "message"), "mark_as_unanswered: The lead is not marked as answered.");
  EXPECT_FALSE(results[4]["success"].GetBool());
  auto page = list();
  const auto& lead1 = page["leads"][1];
  EXPECT_EQ(str(lead1, "first_name"), "A");
  EXPECT_EQ(str(lead1, "last_name"), "B");
  EXPECT_EQ(str(lead1["custom_fields"], "k1"), "v1");
  EXPECT_EQ(str(lead1["custom_fields"], "k2"), "v2");
  EXPECT_TRUE(lead1["do_not_call"].GetBool());
  EXPECT_EQ(str(page["leads"][0], "email"), "");
}

TEST_F(lead_test, mark_as_unanswered_resets_an_answered_lead) {
  ASSERT_EQ(add(R"({"phone_number":"+14155550001"})").status, 201u);
  auto sql = storage::open_session(database_url());
  auto cid = campaign_db_id();
  *sql << "UPDATE leads SET answered = true, answer_type = 'human', answered_at = now(), "
          "call_status = 'COMPLETED', attempts_made = 2, daily_attempts = 2, "
          "daily_attempts_day = current_date WHERE campaign_id = :c",
      soci::use(cid);
  ASSERT_TRUE(list()["leads"][0]["answered"].GetBool());
  auto r = pub("PATCH", base + "/leads/update/bulk", t.key,
               R"([{"phone_number":"+14155550001","mark_as_unanswered":true}])");
  ASSERT_EQ(r.status, 200u);
  EXPECT_TRUE(parse(r.body)["results"][0]["success"].GetBool());
  auto l = list();
  const auto& lead = l["leads"][0];
  EXPECT_FALSE(lead["answered"].GetBool());
  EXPECT_EQ(str(lead, "answer_type"), "");
  EXPECT_TRUE(lead["answered_at"].IsNull());
  EXPECT_EQ(str(lead, "call_status"), "IDLE");
  // A re-queue starts a new round of attempts.
  EXPECT_EQ(lead["attempts_made"].GetInt(), 0);
  int daily = -1;
  *sql << "SELECT daily_attempts FROM leads WHERE campaign_id = :c", soci::use(cid),
      soci::into(daily);
  EXPECT_EQ(daily, 0);
}

// A bulk update's mark_as_unanswered applies the call state machine's rule
// (domain::mark_unanswered) to the stored state: it leaves what the rule
// makes, and refuses exactly when the rule changes nothing.
TEST_F(lead_test, mark_as_unanswered_stores_what_the_call_state_rule_makes) {
  ASSERT_EQ(add(R"({"phone_number":"+14155550001"})").status, 201u);
  auto sql = storage::open_session(database_url());
  const auto cid = campaign_db_id();
  long long lead_id = 0;
  *sql << "SELECT id FROM leads WHERE campaign_id = :c", soci::use(cid), soci::into(lead_id);
  const auto tenant_id = *domain::decode_global_id(domain::entity::tenant, t.id);
  const auto at = std::chrono::floor<std::chrono::seconds>(domain::now());

  domain::lead_call_state answered;
  answered.status = domain::call_status::completed;
  answered.answered = true;
  answered.answer_type = "voicemail";
  answered.attempts_made = 3;
  answered.daily_attempts = 2;
  answered.daily_attempts_day = "2026-01-02";
  answered.next_attempt_after = at + std::chrono::hours(1);
  answered.answered_at = at;
  answered.call_error_reason = "busy";
  domain::lead_call_state waiting;
  waiting.status = domain::call_status::idle;
  waiting.attempts_made = 1;
  waiting.daily_attempts = 1;
  waiting.daily_attempts_day = "2026-01-02";
  waiting.next_attempt_after = at;
  waiting.call_error_reason = "no_answer";

  // COMPLETED without the answered flag: no transition makes it, but the
  // rule covers it, so the SQL must too.
  domain::lead_call_state completed = waiting;
  completed.status = domain::call_status::completed;

  for (const auto& before : {answered, waiting, completed}) {
    storage::store_call_state(*sql, tenant_id, lead_id, before);
    auto r = pub("PATCH", base + "/leads/update/bulk", t.key,
                 R"([{"phone_number":"+14155550001","mark_as_unanswered":true}])");
    ASSERT_EQ(r.status, 200u) << r.body;
    const auto expected = domain::mark_unanswered(before);
    const bool changed = expected.status != before.status || expected.answered != before.answered;
    EXPECT_EQ(parse(r.body)["results"][0]["success"].GetBool(), changed) << r.body;
    auto stored = storage::find_call_state(*sql, tenant_id, lead_id);
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->status, expected.status);
    EXPECT_EQ(stored->answered, expected.answered);
    EXPECT_EQ(stored->answer_type, expected.answer_type);
    EXPECT_EQ(stored->attempts_made, expected.attempts_made);
    EXPECT_EQ(stored->daily_attempts, expected.daily_attempts);
    EXPECT_EQ(stored->daily_attempts_day, expected.daily_attempts_day);
    EXPECT_EQ(stored->next_attempt_after, expected.next_attempt_after);
    EXPECT_EQ(stored->answered_at, expected.answered_at);
    EXPECT_EQ(stored->call_error_reason, expected.call_error_reason);
  }
}

TEST_F(lead_test, bulk_remove_by_phone_or_id_with_id_winning) {
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(add(R"({"phone_number":")" + phone(i) + "\"}").status, 201u);
  auto page = list();
  auto id_of_0 = str(page["leads"][3], "id");
  auto r = pub("DELETE", base + "/leads/remove/bulk", t.key,
               R"([{"phone_number":")" + phone(1) + R"("},
                   {"campaign_lead_id":")" +
                   id_of_0 + R"(","phone_number":")" + phone(2) + R"("},
                   {"phone_number":"+14150000000"},
                   {},
                   {"campaign_lead_id":"garbage"}])");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  const auto& res = d["results"];
  ASSERT_EQ(res.Size(), 5u);
  EXPECT_TRUE(res[0]["success"].GetBool());
  EXPECT_TRUE(res[1]["success"].GetBool());
  EXPECT_EQ(str(res[1], "campaign_lead_id"), id_of_0);
  EXPECT_FALSE(res[2]["success"].GetBool());
  EXPECT_EQ(str(res[2], "message"),
            "Lead not found with the given phone number or campaign lead id");
  EXPECT_FALSE(res[3]["success"].GetBool());
  EXPECT_FALSE(res[4]["success"].GetBool());
  auto after = list();
  EXPECT_EQ(after["page_info"]["total_count"].GetInt64(), 2);
  std::set<std::string> left;
  for (const auto& l : after["leads"].GetArray())
    left.insert(str(l, "phone_number"));
  EXPECT_EQ(left, (std::set<std::string>{phone(2), phone(3)}));
}

// Items run as if one by one: a lead named twice (by phone, then by id) is
// removed by the first item and not found by the second; counts and pages
// stay right.
TEST_F(lead_test, a_lead_named_twice_in_a_bulk_remove_is_removed_once) {
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(add(R"({"phone_number":")" + phone(i) + "\"}").status, 201u);
  auto id_of_1 = str(list()["leads"][1], "id");
  auto r = pub("DELETE", base + "/leads/remove/bulk", t.key,
               R"([{"phone_number":")" + phone(1) + R"("},{"campaign_lead_id":")" + id_of_1 +
                   R"("},{"phone_number":")" + phone(0) + R"("},{"phone_number":")" + phone(0) +
                   R"("}])");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  const auto& res = d["results"];
  ASSERT_EQ(res.Size(), 4u);
  EXPECT_TRUE(res[0]["success"].GetBool());
  EXPECT_FALSE(res[1]["success"].GetBool());
  EXPECT_TRUE(res[2]["success"].GetBool());
  EXPECT_FALSE(res[3]["success"].GetBool());
  auto after = list();
  EXPECT_EQ(after["page_info"]["total_count"].GetInt64(), 1);
  ASSERT_EQ(after["leads"].Size(), 1u);
  EXPECT_EQ(str(after["leads"][0], "phone_number"), phone(2));
}

TEST_F(lead_test, v1_update_and_remove) {
  ASSERT_EQ(add(R"({"phone_number":"+14155550001"})").status, 201u);
  auto v1 = "/v1/api/voice-campaigns/" + campaign;
  auto ok =
      pub("PATCH", v1 + "/lead/update", t.key,
          R"({"tenant_id":")" + t.id + R"(","phone_number":"+14155550001","first_name":"V1"})");
  ASSERT_EQ(ok.status, 200u) << ok.body;
  EXPECT_EQ(str(parse(ok.body), "status"), "success");
  EXPECT_EQ(str(list()["leads"][0], "first_name"), "V1");

  auto missing = pub("PATCH", v1 + "/lead/update", t.key, R"({"phone_number":"+14155550001"})");
  EXPECT_EQ(missing.status, 400u);
  auto other = create_tenant();
  auto wrong = pub("PATCH", v1 + "/lead/update", t.key,
                   R"({"tenant_id":")" + other.id + R"(","phone_number":"+14155550001"})");
  EXPECT_EQ(wrong.status, 403u);
  auto ghost = pub("PATCH", v1 + "/lead/update", t.key,
                   R"({"tenant_id":")" + t.id + R"(","phone_number":"+14155559999"})");
  EXPECT_EQ(ghost.status, 404u);
  EXPECT_EQ(str(parse(ghost.body), "message"), "Lead not found");
  // The bulk item's words, as the 400's problem; the other field is kept.
  auto unanswered = pub("PATCH", v1 + "/lead/update", t.key,
                        R"({"tenant_id":")" + t.id +
                            R"(","phone_number":"+14155550001","first_name":"Not",)"
                            R"("mark_as_unanswered":true})");
  EXPECT_EQ(unanswered.status, 400u);
  auto problems = parse(unanswered.body);
  ASSERT_TRUE(problems["error"].IsArray()) << unanswered.body;
  EXPECT_STREQ(problems["error"][0].GetString(),
               "mark_as_unanswered: The lead is not marked as answered.");
  EXPECT_EQ(str(list()["leads"][0], "first_name"), "V1");

  auto neither = pub("DELETE", v1 + "/lead/remove", t.key, R"({"tenant_id":")" + t.id + "\"}");
  EXPECT_EQ(neither.status, 400u);
  EXPECT_EQ(str(parse(neither.body), "message"),
            "Either phone_number or campaign_lead_id is required");
  auto none = pub("DELETE", v1 + "/lead/remove", t.key,
                  R"({"tenant_id":")" + t.id + R"(","phone_number":"+14155559999"})");
  EXPECT_EQ(none.status, 404u);
  EXPECT_EQ(str(parse(none.body), "message"),
            "Lead not found with the given phone number or campaign lead id");
  auto method = pub("POST", v1 + "/lead/remove", t.key, "{}");
  EXPECT_EQ(method.status, 405u);
  EXPECT_EQ(str(parse(method.body), "message"), "Invalid request method");
  auto removed = pub("DELETE", v1 + "/lead/remove", t.key,
                     R"({"tenant_id":")" + t.id + R"(","phone_number":"+14155550001"})");
  ASSERT_EQ(removed.status, 200u) << removed.body;
  EXPECT_EQ(list()["page_info"]["total_count"].GetInt64(), 0);
  auto again = pub("DELETE", v1 + "/lead/remove", t.key,
                   R"({"tenant_id":")" + t.id + R"(","phone_number":"+14155550001"})");
  EXPECT_EQ(again.status, 404u);
}

TEST_F(lead_test, disabled_key_on_v1_routes_says_so) {
  ASSERT_EQ(op("PATCH", "/admin/v1/api-keys/" + t.key_id, R"({"status":"Disabled"})").status, 200u);
  auto r = pub("PATCH", "/v1/api/voice-campaigns/" + campaign + "/lead/update", t.key,
               R"({"tenant_id":")" + t.id + R"(","phone_number":"+14155550001"})");
  EXPECT_EQ(r.status, 401u);
  EXPECT_EQ(str(parse(r.body), "message"), "API key is disabled");
}

} // namespace
} // namespace vcs::test
