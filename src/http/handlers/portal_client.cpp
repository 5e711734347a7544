// What a client user reads of what its agency gave its client: the
// assigned resources of every kind its levels show
// (GET /api/v2/portal/resources), and its forms' submissions
// (GET /api/v2/portal/form-submissions). Both are shut while a payment is
// due.

#include "domain/client_access.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/render.hpp"
#include "storage/assignment_repository.hpp"
#include "storage/client_user_repository.hpp"
#include "storage/form_repository.hpp"

namespace vcs::http::handlers {

namespace {

// GET /api/v2/portal/resources: every kind with its level and, unless the
// level is no_access, the ids assigned over the client's configurations.
class portal_resources_handler final : public handler {
public:
  access required_access() const override { return access::client_session; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto& sql = ctx.db();
    const auto& client = *ex->principal->client;
    auto who = storage::find_portal_identity(sql, client.client_user_id);
    if (!who)
      return ex->fail({domain::errc::unauthorized, "Your session has ended; sign in again"});
    auto assigned =
        storage::read_client_assignments(sql, ex->principal->tenant_id, client.client_id);
    json_out out;
    out.w().StartObject();
    out.field("success", true);
    out.key("data");
    out.w().StartArray();
    for (const auto& [kind, ids] : assigned) {
      const auto level = domain::level_of(who->access, kind);
      out.w().StartObject();
      out.field("kind", kind);
      out.field("level", domain::to_string(level));
      out.key("ids");
      out.w().StartArray();
      if (level != domain::access_level::no_access)
        for (const auto& id : ids)
          out.w().String(id.data(), static_cast<rapidjson::SizeType>(id.size()));
      out.w().EndArray();
      out.w().EndObject();
    }
    out.w().EndArray();
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// GET /api/v2/portal/form-submissions: the client's submissions of every
// form, newest first, page by page.
class portal_form_submissions_handler final : public handler {
public:
  access required_access() const override { return access::client_session; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    storage::page_request page;
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    auto found = storage::page_of_client_submissions(ctx.db(), ex->principal->tenant_id,
                                                     ex->principal->client->client_id, page);
    respond_page(ex, found, page, render_client_submission);
  }
};

} // namespace

std::shared_ptr<handler> portal_resources() {
  return std::make_shared<portal_resources_handler>();
}

std::shared_ptr<handler> portal_form_submissions() {
  return std::make_shared<portal_form_submissions_handler>();
}

} // namespace vcs::http::handlers
