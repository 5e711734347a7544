// Transport behaviour: routing errors, limits, JSON errors, request ids,
// health and metrics.

#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace vcs::test {
namespace {

class http_behaviour_test : public service_test {};

TEST_F(http_behaviour_test, unknown_route_is_404_json) {
  auto t = create_tenant();
  auto r = pub("GET", "/api/v2/nothing-here", t.key);
  EXPECT_EQ(r.status, 404u);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(str(parse(r.body), "message"), "Not found");
  // Routing comes before authentication.
  EXPECT_EQ(public_client.get("/nope").status, 404u);
}

TEST_F(http_behaviour_test, wrong_method_is_405_json_with_allow) {
  auto t = create_tenant();
  auto r = pub("DELETE", "/api/v2/clients", t.key);
  EXPECT_EQ(r.status, 405u);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(str(parse(r.body), "message"), "Method not allowed");
  EXPECT_EQ(r.header("allow"), "GET");
}

TEST_F(http_behaviour_test, malformed_json_is_400_invalid_data) {
  for (const char* body : {"{not json", "{\"name\":\"x\"} trailing", "", "[1,2]", "\"str\""}) {
    auto r = op("POST", "/admin/v1/tenants", body);
    EXPECT_EQ(r.status, 400u) << body;
    EXPECT_EQ(str(parse(r.body), "message"), "Invalid data") << body;
  }
}

TEST_F(http_behaviour_test, oversized_body_is_413_json_and_service_keeps_serving) {
  std::string huge = R"({"name":")" + std::string(2 * 1024 * 1024, 'a') + R"(","plan":"PRO"})";
  auto r = op("POST", "/admin/v1/tenants", huge);
  EXPECT_EQ(r.status, 413u);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(str(parse(r.body), "message"), "Request body too large");
  http_client fresh{"127.0.0.1", svc.operator_port()};
  EXPECT_EQ(fresh.get("/healthz").status, 200u);
  EXPECT_EQ(op("GET", "/healthz").status, 200u);
}

// A client that sends a whole body declared over the limit (as most do,
// without Expect: 100-continue) gets to send all of it and reads the 413:
// the node drops the body instead of closing with unread bytes, which
// resets the connection mid-send, and most clients then report the reset,
// not the answer. Plain sockets: the test client would retry a reset.
TEST_F(http_behaviour_test, a_body_declared_over_the_limit_is_read_and_answered_413) {
  const std::string body(8 * 1024 * 1024, ' ');
  const std::string request =
      "POST /admin/v1/tenants HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Authorization: Bearer " +
      svc.operator_token() +
      "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
      "\r\n\r\n" + body;
  for (int attempt = 0; attempt < 10; ++attempt) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(svc.operator_port());
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    std::size_t sent = 0;
    while (sent < request.size()) {
      const auto n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0)
        break;
      sent += static_cast<std::size_t>(n);
    }
    EXPECT_EQ(sent, request.size()) << "attempt " << attempt << ": " << std::strerror(errno);
    std::string answer;
    char chunk[4096];
    for (ssize_t n; (n = ::recv(fd, chunk, sizeof chunk, 0)) > 0;)
      answer.append(chunk, static_cast<std::size_t>(n));
    ::close(fd);
    EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << "attempt " << attempt << ": " << answer;
  }
}

// The larger body limit belongs to the bulk lead routes, not to any path
// that ends in /bulk.
TEST_F(http_behaviour_test, only_a_bulk_route_reads_a_bulk_sized_body) {
  auto t = create_tenant();
  std::string big = "[" + std::string(2 * 1024 * 1024, ' ') + "]";
  auto made_up = pub("POST", "/api/v2/do-not-call/bulk", t.key, big);
  EXPECT_EQ(made_up.status, 413u) << made_up.body;
  auto wrong_method = pub("POST", "/api/v2/voice-campaigns/1/leads/update/bulk", t.key, big);
  EXPECT_EQ(wrong_method.status, 413u) << wrong_method.body;
  auto bulk = pub("PATCH", "/api/v2/voice-campaigns/1/leads/update/bulk", t.key, big);
  EXPECT_NE(bulk.status, 413u) << bulk.body;
  EXPECT_EQ(bulk.header("content-type"), "application/json");
}

TEST_F(http_behaviour_test, oversized_headers_are_431_json) {
  // Beast's client caps one field at 64 KiB, so spread the bulk over several.
  header_list padding;
  for (int i = 0; i < 4; ++i)
    padding.emplace_back("X-Padding-" + std::to_string(i), std::string(8 * 1024, 'h'));
  auto r = public_client.get("/healthz", padding);
  EXPECT_EQ(r.status, 431u);
  EXPECT_EQ(r.header("content-type"), "application/json");
  http_client fresh{"127.0.0.1", svc.public_port()};
  EXPECT_EQ(fresh.get("/healthz").status, 200u);
}

TEST_F(http_behaviour_test, malformed_request_line_is_400_json) {
  http_client raw{"127.0.0.1", svc.public_port()};
  raw.send_raw("THIS IS NOT HTTP\r\n\r\n");
  auto r = raw.read_response();
  EXPECT_EQ(r.status, 400u);
  EXPECT_EQ(r.header("content-type"), "application/json");
}

TEST_F(http_behaviour_test, request_id_is_generated_or_echoed) {
  auto generated = public_client.get("/healthz");
  EXPECT_FALSE(generated.header("x-request-id").empty());
  auto again = public_client.get("/healthz");
  EXPECT_NE(again.header("x-request-id"), generated.header("x-request-id"));
  auto echoed = public_client.get("/healthz", {{"X-Request-Id", "dialer-42.a_b"}});
  EXPECT_EQ(echoed.header("x-request-id"), "dialer-42.a_b");
  // A header value that is not a sane token is replaced.
  auto replaced = public_client.get("/healthz", {{"X-Request-Id", "bad id with spaces"}});
  EXPECT_NE(replaced.header("x-request-id"), "bad id with spaces");
  // Error responses carry it too.
  EXPECT_FALSE(public_client.get("/nope").header("x-request-id").empty());
}

TEST_F(http_behaviour_test, healthz_on_both_listeners_without_auth) {
  for (auto port : {svc.public_port(), svc.operator_port()}) {
    http_client c{"127.0.0.1", port};
    auto r = c.get("/healthz");
    EXPECT_EQ(r.status, 200u);
    EXPECT_EQ(str(parse(r.body), "status"), "ok");
  }
}

// The API reference is served by the binary itself: the OpenAPI document as
// JSON with every documented path, the page, and its renderer.
TEST_F(http_behaviour_test, api_reference_is_served_without_auth) {
  auto doc = public_client.get("/openapi.json");
  ASSERT_EQ(doc.status, 200u);
  EXPECT_EQ(doc.header("content-type"), "application/json");
  auto d = parse(doc.body);
  EXPECT_EQ(str(d, "openapi").substr(0, 2), "3.");
  ASSERT_TRUE(d["paths"].IsObject());
  EXPECT_TRUE(d["paths"].HasMember("/api/v2/voice-campaigns/{campaign_id}/leads/list"));
  EXPECT_FALSE(d["paths"].HasMember("/admin/v1/billing/sweep")) << "the public document is public";
  EXPECT_TRUE(d["x-webhooks"].HasMember("import.completed"));
  // The operator listener serves the operator document, and its own page.
  auto op_doc = parse(operator_client.get("/openapi.json").body);
  EXPECT_TRUE(op_doc["paths"].HasMember("/admin/v1/billing/sweep"));
  EXPECT_FALSE(op_doc["paths"].HasMember("/api/v2/voice-campaigns/{campaign_id}/leads/list"));
  EXPECT_FALSE(op_doc.HasMember("x-webhooks"));
  EXPECT_FALSE(op_doc["components"]["schemas"].HasMember("LeadInput"))
      << "only the components the operator operations reach";
  EXPECT_EQ(operator_client.get("/docs").status, 200u);
  auto page = public_client.get("/docs");
  ASSERT_EQ(page.status, 200u);
  EXPECT_NE(page.header("content-type").find("text/html"), std::string::npos);
  EXPECT_NE(page.body.find(R"(spec-url="/openapi.json")"), std::string::npos);
  EXPECT_NE(page.body.find(R"(src="/docs/redoc.standalone.js")"), std::string::npos);
  auto script = public_client.get("/docs/redoc.standalone.js");
  ASSERT_EQ(script.status, 200u);
  EXPECT_NE(script.header("content-type").find("javascript"), std::string::npos);
  EXPECT_GT(script.body.size(), 100'000u);
  EXPECT_NE(script.body.find("Redoc"), std::string::npos);
}

// Health follows the database: a node whose database goes away answers 503
// within a probe interval (requests too), and 200 again once it is back.
TEST_F(http_behaviour_test, healthz_follows_the_database) {
  auto admin = storage::open_session(database_url());
  const std::string name = "vcs_health_probe_test";
  *admin << "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)";
  *admin << "CREATE DATABASE " + name;
  auto url = database_url();
  url = url.substr(0, url.rfind('/') + 1) + name;
  service_process node{{{"VCS_DATABASE_URL", url}}};
  http_client c{"127.0.0.1", node.public_port()};
  auto poll = [&](unsigned want) {
    for (int i = 0; i < 100; ++i) {
      if (c.get("/healthz").status == want)
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  };
  EXPECT_TRUE(poll(200));
  *admin << "DROP DATABASE " + name + " WITH (FORCE)";
  EXPECT_TRUE(poll(503));
  auto down = c.get("/healthz");
  EXPECT_EQ(str(parse(down.body), "status"), "unavailable");
  http_client op_client{"127.0.0.1", node.operator_port()};
  EXPECT_EQ(op_client.get("/healthz").status, 503u);
  // Requests fail fast with 503 and the JSON envelope, reads and writes
  // alike (a lost connection is never a 500).
  auto read = c.get("/api/v2/clients", bearer("vcs_anything"));
  EXPECT_EQ(read.status, 503u) << read.body;
  EXPECT_EQ(str(parse(read.body), "message"), "Service temporarily unavailable");
  auto write = op_client.request("POST", "/admin/v1/tenants", R"({"name":"x","plan":"PRO"})",
                                 bearer(node.operator_token()));
  EXPECT_EQ(write.status, 503u) << write.body;
  *admin << "CREATE DATABASE " + name;
  EXPECT_TRUE(poll(200));
  EXPECT_EQ(node.terminate(), 0);
  *admin << "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)";
}

TEST_F(http_behaviour_test, metrics_count_routes_and_statuses) {
  auto t = create_tenant();
  pub("GET", "/api/v2/clients", t.key);
  public_client.get("/api/v2/clients");
  EXPECT_EQ(operator_client.get("/metrics").status, 401u);
  auto m = op("GET", "/metrics");
  ASSERT_EQ(m.status, 200u);
  EXPECT_NE(m.header("content-type").find("text/plain"), std::string::npos);
  EXPECT_NE(m.body.find(R"(vcs_http_requests_total{route="GET /api/v2/clients",status="200"})"),
            std::string::npos);
  EXPECT_NE(m.body.find(R"(vcs_http_requests_total{route="GET /api/v2/clients",status="401"})"),
            std::string::npos);
  EXPECT_NE(
      m.body.find(
          R"(vcs_http_request_duration_seconds_bucket{route="GET /api/v2/clients",le="+Inf"})"),
      std::string::npos);
}

TEST_F(http_behaviour_test, keep_alive_serves_many_requests_on_one_connection) {
  http_client c{"127.0.0.1", svc.public_port()};
  for (int i = 0; i < 50; ++i) {
    auto r = c.get("/healthz");
    ASSERT_EQ(r.status, 200u);
    EXPECT_NE(r.header("connection"), "close");
  }
}

// The API reference runs a third-party bundle on the console's host: it gets
// no origin of its own, no inline script, no framing; its files are not
// sniffed. Answers carrying a key, a set-up link or a CSRF token are never
// cached.
TEST_F(http_behaviour_test, the_reference_is_sandboxed_and_secrets_are_never_cached) {
  auto page = public_client.get("/docs");
  ASSERT_EQ(page.status, 200u);
  const auto csp = page.header("content-security-policy");
  EXPECT_EQ(csp.rfind("sandbox allow-scripts", 0), 0u) << csp;
  EXPECT_NE(csp.find("script-src 'self';"), std::string::npos) << csp;
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
  for (const char* file : {"/docs", "/docs/redoc.standalone.js", "/openapi.json"}) {
    auto r = public_client.get(file);
    EXPECT_EQ(r.status, 200u) << file;
    EXPECT_EQ(r.header("x-content-type-options"), "nosniff") << file;
    EXPECT_NE(r.header("content-security-policy").find("frame-ancestors 'none'"),
              std::string::npos)
        << file;
  }
  EXPECT_EQ(public_client.get("/openapi.json").header("access-control-allow-origin"), "*");

  auto t = create_tenant();
  auto key = pub("POST", "/api/v2/api-keys", t.key, R"({"name":"cached?"})");
  ASSERT_EQ(key.status, 201u);
  EXPECT_EQ(key.header("cache-control"), "no-store");
  auto tenant = op("POST", "/admin/v1/tenants", R"({"name":"cached tenant","plan":"PRO"})");
  ASSERT_EQ(tenant.status, 201u) << tenant.body;
  EXPECT_EQ(tenant.header("cache-control"), "no-store");
  auto member = op("POST", "/admin/v1/tenants/" + t.id + "/members",
                   R"({"email":"cache-check-)" + std::to_string(::getpid()) +
                       R"(@example.test","role":"owner"})");
  ASSERT_EQ(member.status, 201u) << member.body;
  EXPECT_EQ(member.header("cache-control"), "no-store");
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns", t.key).header("cache-control"), "no-store");
}

} // namespace
} // namespace vcs::test
