#include "domain/global_id.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/readers.hpp"
#include "storage/form_repository.hpp"

namespace vcs::http::handlers {

namespace {

using domain::encode_global_id;
using domain::entity;

void render_submission(json_out& out, const domain::form_submission& s) {
  out.w().StartObject();
  out.field("submission_id", encode_global_id(entity::form_submission, s.id));
  out.field("client_id", encode_global_id(entity::client, s.client_id));
  out.field("form_id", encode_global_id(entity::client_form, s.form_id));
  out.key("response_data");
  out.w().RawValue(s.response_data_json.data(), s.response_data_json.size(),
                   rapidjson::kObjectType);
  out.field("is_test", s.is_test);
  out.field("created_at", domain::format_utc(s.created_at));
  out.field("updated_at", domain::format_utc(s.updated_at));
  out.w().EndObject();
}

// POST /admin/v1/tenants/{tenant_id}/client-forms
class create_form_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto title = in.string("title", true, 255);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    ask_tenant<domain::client_form>(
        ctx.self, ex, t->id,
        [ex](domain::client_form& f) {
          json_out out;
          out.w().StartObject();
          out.field("client_form_id", encode_global_id(entity::client_form, f.id));
          out.field("title", f.title);
          out.field("created_at", domain::format_utc(f.created_at));
          out.w().EndObject();
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::create_atom::value, actors::form_create{std::move(*title)}));
  }
};

// POST /admin/v1/client-forms/{client_form_id}/submissions
class add_submission_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    domain::form_submission sub;
    auto client = client_reference(in, errors);
    auto data = body->FindMember("response_data");
    if (data == body->MemberEnd() || !data->value.IsObject()) {
      errors.add("response_data", "Must be an object.");
    } else {
      rapidjson::StringBuffer buf;
      json_writer w{buf};
      data->value.Accept(w);
      sub.response_data_json.assign(buf.GetString(), buf.GetSize());
    }
    sub.is_test = in.boolean("is_test", false).value_or(false);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    std::optional<domain::client_form> form;
    if (auto id = domain::parse_id(entity::client_form, ex->param("client_form_id")))
      form = storage::find_client_form(ctx.db(), *id);
    if (!form)
      return ex->fail(domain::not_found("Client form not found"));
    sub.form_id = form->id;
    sub.client_id = *client;
    ask_tenant<domain::form_submission>(
        ctx.self, ex, form->tenant_id,
        [ex](domain::form_submission& s) {
          json_out out;
          render_submission(out, s);
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::create_atom::value, std::move(sub)));
  }
};

// GET /api/v2/client-forms/{client_form_id}/submissions[?client_id=][&page=&page_size=]:
// every submission (read in batches), or one page of them with its meta.
class list_submissions_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    const auto& ref = ex->param("client_form_id");
    auto form = domain::parse_id(entity::client_form, ref);
    if (!form)
      return ex->fail(
          domain::error{domain::errc::bad_request, "Invalid client_form_id format"}.with_errors(
              {"client_form_id must be a client form id: " + ref}));
    std::optional<int64_t> client;
    if (auto filter = ex->target.param("client_id")) {
      client = domain::parse_id(entity::client, *filter);
      if (!client)
        return ex->fail(
            domain::error{domain::errc::bad_request, "Invalid client_id format"}.with_errors(
                {"client_id must be a client id: " + *filter}));
    }
    const bool paged = asks_for_a_page(ex->target);
    storage::page_request page;
    if (paged) {
      if (auto refused = read_page(ex->target, page))
        return ex->fail(*refused);
    }
    auto tenant = ex->principal->tenant_id;
    const bool has_form = storage::tenant_has_form(ctx.db(), tenant, *form);
    json_out out;
    out.w().StartObject();
    out.field("status", "success");
    out.field("message", "Submissions retrieved successfully");
    out.key("data");
    out.w().StartObject();
    out.key("submissions");
    out.w().StartArray();
    std::optional<storage::page_of<domain::form_submission>> found;
    std::size_t written = 0;
    if (has_form && paged) {
      found = storage::page_of_submissions(ctx.db(), tenant, *form, client, page);
      for (const auto& s : found->items)
        render_submission(out, s);
    } else if (has_form) {
      auto batches = write_in_batches(
          ex->due,
          [&](const auto& after, int64_t rows) {
            return storage::list_submissions(ctx.db(), tenant, *form, client, after, rows);
          },
          [&](const domain::form_submission& s) { render_submission(out, s); });
      if (!batches)
        return ex->fail(batches.err());
      written = *batches;
    }
    if ((found ? found->total : static_cast<int64_t>(written)) == 0)
      return ex->fail(domain::not_found("Submissions not found")
                          .with_errors({"No submissions for client_form_id " + ref +
                                        (client ? " and the given client_id" : "")}));
    out.w().EndArray();
    out.w().EndObject();
    if (found)
      meta_field(out, found->total, page);
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

} // namespace

std::shared_ptr<handler> create_client_form() {
  return std::make_shared<create_form_handler>();
}

std::shared_ptr<handler> add_form_submission() {
  return std::make_shared<add_submission_handler>();
}

std::shared_ptr<handler> list_form_submissions() {
  return std::make_shared<list_submissions_handler>();
}

} // namespace vcs::http::handlers
