// Graceful shutdown: SIGTERM stops accepting, lets an in-flight request
// finish, closes idle connections and exits 0.

#include "service_fixture.hpp"

#include <csignal>
#include <thread>

namespace vcs::test {
namespace {

TEST(shutdown_test, sigterm_completes_in_flight_request_then_exits_zero) {
  service_process own;
  http_client idle{"127.0.0.1", own.public_port()};
  ASSERT_EQ(idle.get("/healthz").status, 200u);

  // Half a request: headers and part of the body are on the wire.
  std::string body = R"({"name":"drained tenant","plan":"PRO"})";
  http_client in_flight{"127.0.0.1", own.operator_port()};
  in_flight.send_raw("POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                     own.operator_token() +
                     "\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\n\r\n" + body.substr(0, 10));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  own.send_signal(SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(own.wait_exit(std::chrono::milliseconds(0)), -1) << "exited before the request ended";

  // The idle keep-alive connection is closed by the server, and no new
  // connection is accepted.
  EXPECT_TRUE(idle.closed_by_peer());
  EXPECT_THROW(http_client("127.0.0.1", own.public_port()), std::exception);

  in_flight.send_raw(body.substr(10));
  http_response r;
  try {
    r = in_flight.read_response();
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\n" << own.log_contents();
  }
  EXPECT_EQ(r.status, 201u) << r.body;
  EXPECT_EQ(str(parse(r.body), "name"), "drained tenant");
  EXPECT_EQ(r.header("connection"), "close");

  EXPECT_EQ(own.wait_exit(std::chrono::seconds(20)), 0) << own.log_contents();
}

} // namespace
} // namespace vcs::test
