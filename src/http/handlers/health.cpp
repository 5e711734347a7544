#include "http/handlers/handlers.hpp"
#include "http/json.hpp"
#include "storage/database.hpp"

#include <spdlog/spdlog.h>

namespace vcs::http::handlers {

namespace {

// GET /healthz: 200 when the database answers, 503 otherwise.
class health_handler final : public handler {
public:
  access required_access() const override { return access::none; }
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    try {
      storage::ping(ctx.db());
      ex->respond(200, R"({"status":"ok"})");
    } catch (const std::exception& e) {
      spdlog::warn("health check: database unavailable: {}", e.what());
      ex->respond(503, R"({"status":"unavailable","message":"Database unavailable"})");
    }
  }
};

// GET /metrics: Prometheus text format.
class metrics_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context&) override {
    actors::outbound_response r;
    r.body = ex->svc.metrics->render();
    r.content_type = "text/plain; version=0.0.4";
    ex->respond(std::move(r));
  }
};

} // namespace

std::shared_ptr<handler> health() {
  return std::make_shared<health_handler>();
}

std::shared_ptr<handler> metrics() {
  return std::make_shared<metrics_handler>();
}

} // namespace vcs::http::handlers
