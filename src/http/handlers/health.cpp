#include "http/handlers/handlers.hpp"
#include "http/inputs/json.hpp"
#include "http/metrics/backlog_metrics.hpp"
#include "http/metrics/process_metrics.hpp"
#include "http/metrics/work_metrics.hpp"
#include "http/render/health_response.hpp"
#include "http/work/lead_page_cache.hpp"
#include "http/work/readiness.hpp"

namespace vcs::http::handlers {

namespace {

// GET /healthz: 200 when the database answered the health probe's last
// round trip, 503 otherwise. Answered on the I/O thread when the server has
// the probe's state (server_options::database_up), else by a worker.
class health_handler final : public handler {
public:
  access required_access() const override { return access::none; }
  std::optional<outbound_response> answer_inline(const server_options& o, bool) const override {
    if (!o.database_up)
      return std::nullopt;
    return health_response(o.database_up());
  }
  void handle(const exchange_ptr& ex, worker_context&) override {
    ex->respond(health_response(ex->svc.database_up->load()));
  }
};

// GET /livez: the process and its I/O threads answer.
class liveness_handler final : public handler {
public:
  access required_access() const override { return access::none; }
  std::optional<outbound_response> answer_inline(const server_options&, bool) const override {
    return liveness_response();
  }
  void handle(const exchange_ptr& ex, worker_context&) override {
    ex->respond(liveness_response());
  }
};

// GET /readyz: whether this node should get traffic (http/work/readiness.hpp);
// "draining" once a shutdown began. On the I/O thread when the server has
// the readiness state (server_options::unready).
class readiness_handler final : public handler {
public:
  access required_access() const override { return access::none; }
  std::optional<outbound_response> answer_inline(const server_options& o,
                                                 bool draining) const override {
    if (!o.unready)
      return std::nullopt;
    return readiness_response(draining ? std::optional<std::string>{"draining"} : o.unready());
  }
  void handle(const exchange_ptr& ex, worker_context&) override {
    ex->respond(readiness_response(ex->svc.ready ? ex->svc.ready->unready_reason()
                                                 : std::optional<std::string>{}));
  }
};

// GET /metrics: Prometheus text format: this node's requests, lead page
// cache, process, database workers and background work, and the cluster's
// queues read from the database.
class metrics_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    std::optional<storage::backlog> backlog;
    try {
      backlog = storage::read_backlog(ctx.db());
    } catch (const std::exception&) {
      // The scrape still answers: vcs_backlog_read_success says what is
      // missing.
    }
    outbound_response r;
    r.body = ex->svc.metrics->render() + ex->svc.lead_pages->render_metrics() +
             render_process_metrics() +
             render_work_metrics(ex->svc.db_pool ? ex->svc.db_pool->load()
                                                 : actors::db_pool::load_figures{}) +
             render_backlog_metrics(backlog);
    r.content_type = "text/plain; version=0.0.4";
    ex->respond(std::move(r));
  }
};

} // namespace

std::shared_ptr<handler> health() {
  return std::make_shared<health_handler>();
}

std::shared_ptr<handler> liveness() {
  return std::make_shared<liveness_handler>();
}

std::shared_ptr<handler> readiness() {
  return std::make_shared<readiness_handler>();
}

std::shared_ptr<handler> metrics() {
  return std::make_shared<metrics_handler>();
}

} // namespace vcs::http::handlers
