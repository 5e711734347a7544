#include "http/handlers/handlers.hpp"
#include "http/render.hpp"
#include "storage/client_repository.hpp"

namespace vcs::http::handlers {

namespace {

// GET /api/v2/clients: every client of the key's tenant.
class list_clients_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto clients = storage::list_clients(ctx.db(), ex->principal->tenant_id);
    json_out out;
    out.w().StartObject();
    out.key("clients");
    out.w().StartArray();
    for (const auto& c : clients)
      render_client(out, c);
    out.w().EndArray();
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

} // namespace

std::shared_ptr<handler> list_clients() {
  return std::make_shared<list_clients_handler>();
}

} // namespace vcs::http::handlers
