#include "domain/global_id.hpp"
#include "domain/lead.hpp"
#include "domain/password.hpp"
#include "domain/permission.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/readers.hpp"
#include "http/inputs/assignment_input.hpp"
#include "http/inputs/client_access_input.hpp"
#include "http/render/render.hpp"
#include "http/work/on_cpu_pool.hpp"
#include "storage/client_repository.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace vcs::http::handlers {

namespace {

// GET /api/v2/clients[?page=&page_size=]: every client of the key's tenant
// (read in batches), or one page of them with its meta.
class list_clients_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    const auto tenant = ex->principal->tenant_id;
    const bool paged = asks_for_a_page(ex->target);
    storage::page_request page;
    if (paged) {
      if (auto refused = read_page(ex->target, page))
        return ex->fail(*refused);
    }
    json_out out;
    out.w().StartObject();
    out.key("clients");
    out.w().StartArray();
    if (paged) {
      const auto found = storage::page_of_clients(ctx.db(), tenant, page);
      for (const auto& c : found.items)
        render_client(out, c);
      out.w().EndArray();
      meta_field(out, found.total, page);
    } else {
      auto written = write_in_batches(
          ex->due,
          [&](const auto& after, int64_t rows) {
            return storage::list_clients(ctx.db(), tenant, after, rows);
          },
          [&](const domain::client& c) { render_client(out, c); });
      if (!written)
        return ex->fail(written.err());
      out.w().EndArray();
    }
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// A member object under `name`, or a problem under that name.
const rapidjson::Value* section(const rapidjson::Value& body, const char* name, bool required,
                                domain::field_errors& errors) {
  auto it = body.FindMember(name);
  if (it == body.MemberEnd() || it->value.IsNull()) {
    if (required)
      errors.add(name, "This field is required.");
    return nullptr;
  }
  if (!it->value.IsObject()) {
    errors.add(name, "Must be an object.");
    return nullptr;
  }
  return &it->value;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

void read_users(const rapidjson::Value& body, domain::client_create& req,
                std::vector<std::string>& passwords, domain::field_errors& errors) {
  auto it = body.FindMember("client_users");
  if (it == body.MemberEnd() || !it->value.IsArray() || it->value.Empty()) {
    errors.add("client_users", "At least one client user is required.");
    return;
  }
  // Refused before any password is hashed.
  if (it->value.Size() > domain::client_users_max) {
    errors.add("client_users", "At most " + std::to_string(domain::client_users_max) +
                                   " client users per request.");
    return;
  }
  std::set<std::string> seen;
  for (rapidjson::SizeType i = 0; i < it->value.Size(); ++i) {
    auto prefix = "client_users[" + std::to_string(i) + "]";
    const auto& u = it->value[i];
    if (!u.IsObject()) {
      errors.add(prefix, "Must be an object with email and password.");
      continue;
    }
    domain::field_errors own;
    object_reader in{u, own};
    auto email = in.string("email", true, domain::lead_email_max_length);
    if (email && !domain::is_email(*email))
      own.add("email", "Enter a valid email address.");
    else if (email && !seen.insert(lower(*email)).second)
      own.add("email", "Each client user needs a different e-mail.");
    auto password = in.string("password", true, domain::password_max_length);
    if (password)
      if (auto weak = domain::check_new_password(*password, email.value_or("")))
        own.add("password", std::move(*weak));
    errors.merge(prefix, own);
    if (own.empty()) {
      req.users.push_back({*email, {}});
      passwords.push_back(*password);
    }
  }
}

void read_details(const rapidjson::Value& body, domain::client_create& req,
                  domain::field_errors& errors) {
  if (auto* d = section(body, "client_details", true, errors)) {
    domain::field_errors own;
    object_reader in{*d, own};
    auto name = in.string("name", true, 255);
    auto email = in.string("email", true, domain::lead_email_max_length);
    if (email && !domain::is_email(*email))
      own.add("email", "Enter a valid email address.");
    errors.merge("client_details", own);
    req.name = name.value_or("");
    req.primary_email = email.value_or("");
  }
  if (auto* g = section(body, "client_asset_group", true, errors)) {
    domain::field_errors own;
    object_reader in{*g, own};
    req.asset_group_name = in.string("name", true, 255).value_or("");
    if (auto ref = in.string("tenant_voice_provider_id", false, 128)) {
      req.voice_provider_ref = *ref;
      req.voice_provider_id = domain::parse_id(domain::entity::voice_provider, *ref);
      if (!req.voice_provider_id)
        own.add("tenant_voice_provider_id", "Tenant voice provider not found: " + *ref);
    }
    errors.merge("client_asset_group", own);
  }
}

void read_billing(const rapidjson::Value& body, domain::client_create& req,
                  domain::field_errors& errors) {
  auto* b = section(body, "billing_provider", false, errors);
  if (!b)
    return;
  domain::field_errors own;
  object_reader in{*b, own};
  if (auto type = in.string("type", true, 32); type && *type != "processor")
    own.add("type", "Must be processor.");
  if (auto* p = section(*b, "selected_product", true, own)) {
    domain::field_errors product_errors;
    object_reader pin{*p, product_errors};
    req.product_id = pin.string("product_id", true, 255);
    auto ids = p->FindMember("price_ids");
    if (ids == p->MemberEnd() || !ids->value.IsArray() || ids->value.Empty())
      product_errors.add("price_ids", "Provide a non-empty list of price ids.");
    else if (ids->value.Size() > domain::price_ids_max)
      product_errors.add("price_ids",
                         "At most " + std::to_string(domain::price_ids_max) + " price ids.");
    else
      for (const auto& v : ids->value.GetArray()) {
        if (v.IsString())
          req.price_ids.emplace_back(v.GetString(), v.GetStringLength());
        else
          product_errors.add("price_ids", "Each price id must be a string.");
      }
    own.merge("selected_product", product_errors);
  }
  errors.merge("billing_provider", own);
}

void read_access(const rapidjson::Value& body, domain::client_create& req,
                 domain::field_errors& errors) {
  if (auto* a = section(body, "client_access", false, errors))
    req.access = read_client_access(*a, errors);
}

// POST /api/v2/clients/create: validated here, its references and e-mails
// checked (cheap) before the passwords are hashed on the CPU pool (slow by
// design: off the actor threads and the request workers), created in one
// transaction by the tenant actor.
class create_client_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    domain::client_create req;
    std::vector<std::string> passwords;
    read_client_create(*body, req, passwords, errors);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    if (auto refused = domain::check_reaches(ex->principal->scope, req.campaign_ids))
      return ex->fail(std::move(*refused));
    if (auto refused = storage::check_client_create(ctx.db(), ex->principal->tenant_id, req))
      return ex->fail(std::move(*refused));
    on_cpu_pool(
        ex, ctx,
        [passwords = std::move(passwords)] {
          std::vector<std::string> hashes;
          hashes.reserve(passwords.size());
          for (const auto& p : passwords)
            hashes.push_back(domain::hash_password(p));
          return hashes;
        },
        [ex, req = std::move(req)](worker_context& ctx, std::vector<std::string>& hashes) mutable {
          for (std::size_t i = 0; i < hashes.size(); ++i)
            req.users[i].password_hash = std::move(hashes[i]);
          create(ex, ctx, std::move(req));
        });
  }

private:
  static void create(const exchange_ptr& ex, worker_context& ctx, domain::client_create req) {
    ask_tenant<domain::created_client>(
        ctx.self, ex, ex->principal->tenant_id,
        [ex](domain::created_client& created) {
          const auto& c = created.record;
          json_out out;
          out.w().StartObject();
          out.field("success", true);
          out.field("message", "Client created successfully");
          out.key("data");
          out.w().StartObject();
          out.field("client_id", domain::encode_global_id(domain::entity::client, c.id));
          out.field("client_name", c.name);
          out.field("primary_email", c.primary_email);
          out.key("users");
          out.w().StartArray();
          for (const auto& u : c.users) {
            out.w().StartObject();
            out.field("id", domain::encode_global_id(domain::entity::client_user, u.id));
            out.field("email", u.email);
            out.w().EndObject();
          }
          out.w().EndArray();
          out.field("asset_group_id",
                    domain::encode_global_id(domain::entity::account_configuration,
                                             created.asset_group_id));
          out.w().EndObject();
          out.w().EndObject();
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::create_atom::value, std::move(req)));
  }
};

} // namespace

void read_client_create(const rapidjson::Value& body, domain::client_create& req,
                        std::vector<std::string>& passwords, domain::field_errors& errors) {
  read_users(body, req, passwords, errors);
  read_details(body, req, errors);
  read_billing(body, req, errors);
  read_access(body, req, errors);
  if (auto* r = section(body, "assigned_resources", false, errors))
    req.assigned = read_assignments(*r, "assigned_resources", errors, req.campaign_ids);
}

std::shared_ptr<handler> list_clients() {
  return std::make_shared<list_clients_handler>();
}

std::shared_ptr<handler> create_client() {
  return std::make_shared<create_client_handler>();
}

} // namespace vcs::http::handlers
