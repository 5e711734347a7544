// Client forms: operator-created forms and submissions, read by tenants.

#include "domain/global_id.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <vector>

namespace vcs::test {
namespace {

class client_form_test : public service_test {
protected:
  std::string client(const tenant_info& t, const std::string& email) {
    auto r = pub("POST", "/api/v2/clients/create", t.key,
                 R"({"client_users":[{"email":")" + email + R"(","password":"plum orchard 1"}],
                     "client_details":{"name":"C","email":")" +
                     email + R"("},
                     "client_asset_group":{"name":"g"}})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "client_id");
  }
  std::string form(const tenant_info& t, const std::string& title = "Intake") {
    auto r =
        op("POST", "/admin/v1/tenants/" + t.id + "/client-forms", R"({"title":")" + title + "\"}");
    EXPECT_EQ(r.status, 201u) << r.body;
    EXPECT_EQ(str(parse(r.body), "title"), title);
    return str(parse(r.body), "client_form_id");
  }
  http_response submit(const std::string& form_id, const std::string& client_id,
                       const std::string& data = R"({"q1":"yes"})", bool test = false) {
    return op("POST", "/admin/v1/client-forms/" + form_id + "/submissions",
              R"({"client_id":")" + client_id + R"(","response_data":)" + data + R"(,"is_test":)" +
                  (test ? "true" : "false") + "}");
  }
};

TEST_F(client_form_test, submissions_are_listed_newest_first_and_filtered_by_client) {
  auto t = create_tenant();
  auto a = client(t, "a@forms.io");
  auto b = client(t, "b@forms.io");
  auto f = form(t);
  auto first = submit(f, a, R"({"q1":"first","n":1})");
  ASSERT_EQ(first.status, 201u) << first.body;
  auto s = parse(first.body);
  EXPECT_FALSE(str(s, "submission_id").empty());
  EXPECT_EQ(str(s, "client_id"), a);
  EXPECT_EQ(str(s, "form_id"), f);
  EXPECT_EQ(str(s["response_data"], "q1"), "first");
  EXPECT_FALSE(s["is_test"].GetBool());
  ASSERT_EQ(submit(f, b, R"({"q1":"second"})", true).status, 201u);

  auto all = pub("GET", "/api/v2/client-forms/" + f + "/submissions", t.key);
  ASSERT_EQ(all.status, 200u) << all.body;
  auto d = parse(all.body);
  EXPECT_EQ(str(d, "status"), "success");
  const auto& list = d["data"]["submissions"];
  ASSERT_EQ(list.Size(), 2u);
  EXPECT_EQ(str(list[0]["response_data"], "q1"), "second");
  EXPECT_TRUE(list[0]["is_test"].GetBool());
  EXPECT_FALSE(str(list[0], "created_at").empty());
  EXPECT_FALSE(str(list[0], "updated_at").empty());

  auto only_a =
      parse(pub("GET", "/api/v2/client-forms/" + f + "/submissions?client_id=" + a, t.key).body);
  ASSERT_EQ(only_a["data"]["submissions"].Size(), 1u);
  EXPECT_EQ(str(only_a["data"]["submissions"][0], "client_id"), a);

  // One page and its meta, with the filter too.
  auto page = parse(
      pub("GET", "/api/v2/client-forms/" + f + "/submissions?page=2&page_size=1", t.key).body);
  ASSERT_EQ(page["data"]["submissions"].Size(), 1u);
  EXPECT_EQ(str(page["data"]["submissions"][0]["response_data"], "q1"), "first");
  EXPECT_EQ(page["meta"]["total"].GetInt64(), 2);
  auto filtered = parse(
      pub("GET", "/api/v2/client-forms/" + f + "/submissions?page_size=5&client_id=" + b, t.key)
          .body);
  ASSERT_EQ(filtered["data"]["submissions"].Size(), 1u);
  EXPECT_EQ(filtered["meta"]["total"].GetInt64(), 1);
  EXPECT_FALSE(d.HasMember("meta"));
  EXPECT_EQ(pub("GET", "/api/v2/client-forms/" + f + "/submissions?page_size=0", t.key).status,
            400u);
}

// The whole list is read 1,000 submissions at a time: 1,001 submissions,
// with a tie on their creation time across the batches' boundary, come once
// each, newest first.
TEST_F(client_form_test, every_submission_comes_once_across_batches) {
  auto t = create_tenant();
  auto a = client(t, "bulk@forms.io");
  auto f = form(t);
  auto sql = storage::open_session(database_url());
  long long tenant = tenant_db_id(t);
  long long form_id = *domain::decode_global_id(domain::entity::client_form, f);
  long long client_id = *domain::decode_global_id(domain::entity::client, a);
  *sql << "INSERT INTO form_submissions (tenant_id, form_id, client_id, response_data, "
          "created_at) SELECT :t, :f, :c, jsonb_build_object('n', i), "
          "timestamptz '2026-01-01' + (i / 4) * interval '1 second' "
          "FROM generate_series(1, 1001) AS i",
      soci::use(tenant), soci::use(form_id), soci::use(client_id);
  std::vector<long long> expected(1001);
  *sql << "SELECT id FROM form_submissions WHERE form_id = :f ORDER BY created_at DESC, id DESC",
      soci::use(form_id), soci::into(expected);
  auto all = pub("GET", "/api/v2/client-forms/" + f + "/submissions", t.key);
  ASSERT_EQ(all.status, 200u);
  auto d = parse(all.body);
  const auto& list = d["data"]["submissions"];
  ASSERT_EQ(list.Size(), 1001u);
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i)
    EXPECT_EQ(
        domain::decode_global_id(domain::entity::form_submission, str(list[i], "submission_id")),
        expected[i])
        << i;
}

TEST_F(client_form_test, errors_as_the_spec_words_them) {
  auto t = create_tenant();
  auto f = form(t);
  auto bad = pub("GET", "/api/v2/client-forms/not-an-id/submissions", t.key);
  ASSERT_EQ(bad.status, 400u);
  EXPECT_EQ(str(parse(bad.body), "message"), "Invalid client_form_id format");
  EXPECT_TRUE(parse(bad.body)["errors"].IsArray());
  auto none = pub("GET", "/api/v2/client-forms/" + f + "/submissions", t.key);
  ASSERT_EQ(none.status, 404u);
  EXPECT_EQ(str(parse(none.body), "message"), "Submissions not found");
  EXPECT_TRUE(parse(none.body)["errors"].IsArray());
  auto filter = pub("GET", "/api/v2/client-forms/" + f + "/submissions?client_id=zz", t.key);
  EXPECT_EQ(filter.status, 400u);
  auto c = client(t, "c@forms.io");
  ASSERT_EQ(submit(f, c).status, 201u);
  auto other_client = client(t, "d@forms.io");
  EXPECT_EQ(
      pub("GET", "/api/v2/client-forms/" + f + "/submissions?client_id=" + other_client, t.key)
          .status,
      404u);
}

TEST_F(client_form_test, forms_and_clients_stay_inside_their_tenant) {
  auto t = create_tenant();
  auto other = create_tenant();
  auto f = form(t);
  auto mine = client(t, "e@forms.io");
  auto theirs = client(other, "f@forms.io");
  ASSERT_EQ(submit(f, mine).status, 201u);
  auto foreign_client = submit(f, theirs);
  EXPECT_EQ(foreign_client.status, 404u);
  EXPECT_EQ(str(parse(foreign_client.body), "message"), "Client not found");
  auto r = pub("GET", "/api/v2/client-forms/" + f + "/submissions", other.key);
  EXPECT_EQ(r.status, 404u);
  EXPECT_EQ(str(parse(r.body), "message"), "Submissions not found");
}

TEST_F(client_form_test, operator_validation) {
  auto t = create_tenant();
  EXPECT_EQ(op("POST", "/admin/v1/tenants/" + t.id + "/client-forms", "{}").status, 400u);
  EXPECT_EQ(
      op("POST", "/admin/v1/tenants/VGVuYW50Ojk5OTk5OTk=/client-forms", R"({"title":"x"})").status,
      404u);
  auto f = form(t);
  auto c = client(t, "g@forms.io");
  EXPECT_EQ(submit(f, c, "[1]").status, 400u);
  EXPECT_EQ(submit("Q2xpZW50Rm9ybTo5OTk5OTk5", c).status, 404u);
  EXPECT_EQ(
      op("POST", "/admin/v1/client-forms/" + f + "/submissions", R"({"response_data":{}})").status,
      400u);
}

} // namespace
} // namespace vcs::test
