// The do-not-call list's routes, on the public plane (the key's tenant) and
// the operator plane (the path's tenant).

#include "domain/lead.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lookup.hpp"
#include "storage/dialer_repository.hpp"

namespace vcs::http::handlers {

namespace {

// A refused do-not-call request: each plane words it as its API does.
domain::error dnc_refusal(domain::field_errors errors, bool operator_plane) {
  return operator_plane ? validation_error(std::move(errors))
                        : domain::invalid_data(std::move(errors));
}

// The E.164 number of a do-not-call route, from the body or the path, or
// the 400 when it is missing or malformed.
domain::result<std::string> dnc_number(std::optional<std::string> text, bool operator_plane) {
  domain::field_errors errors;
  if (!text)
    errors.add("phone_number", "This field is required.");
  else if (!domain::check_phone(*text).well_formed)
    errors.add("phone_number", "Enter a phone number in E.164 format (+ and 2 to 15 digits).");
  if (!errors.empty())
    return dnc_refusal(std::move(errors), operator_plane);
  return std::move(*text);
}

void render_dnc(const exchange_ptr& ex, unsigned status, const std::string& number, bool listed,
                const char* message) {
  json_out out;
  out.w().StartObject();
  out.field("status", "success");
  out.field("message", message);
  out.key("data");
  out.w().StartObject();
  out.field("phone_number", number);
  out.field("do_not_call", listed);
  out.w().EndObject();
  out.w().EndObject();
  ex->respond(status, out.take());
}

// The tenant a do-not-call route acts for: the key's, or the path's.
template <class Base> class dnc_handler : public Base {
protected:
  static constexpr bool operator_plane = std::is_same_v<Base, operator_handler>;

  // The key's tenant, or the path's (or its 404 `Tenant not found`).
  domain::result<int64_t> tenant(const exchange_ptr& ex, worker_context& ctx) {
    if constexpr (operator_plane) {
      auto t = path_tenant(ex, ctx);
      if (!t)
        return t.err();
      return t->id;
    } else
      return ex->principal->tenant_id;
  }

  // The tenant and the number in the path, or the number's 400 or the
  // tenant's 404, in that order.
  domain::result<std::pair<int64_t, std::string>> path_target(const exchange_ptr& ex,
                                                              worker_context& ctx) {
    auto number = dnc_number(ex->param("phone_number"), operator_plane);
    if (!number)
      return number.err();
    auto t = tenant(ex, ctx);
    if (!t)
      return t.err();
    return std::pair<int64_t, std::string>{*t, std::move(*number)};
  }
};

// POST .../do-not-call {phone_number}: 201 when added, 200 when listed before.
template <class Base> class add_dnc_handler final : public dnc_handler<Base> {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto text = in.string("phone_number", false, 32);
    if (!errors.empty())
      return ex->fail(dnc_refusal(std::move(errors), this->operator_plane));
    auto number = dnc_number(text, this->operator_plane);
    if (!number)
      return ex->fail(number.err());
    auto t = this->tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    ask_tenant<bool>(
        ctx.self, ex, *t,
        [ex, n = *number](bool added) {
          render_dnc(ex, added ? 201 : 200, n, true,
                     added ? "Number added to the do-not-call list"
                           : "Number already on the do-not-call list");
        },
        std::make_tuple(actors::create_atom::value, actors::do_not_call_change{*number}));
  }
};

// DELETE .../do-not-call/{phone_number}
template <class Base> class remove_dnc_handler final : public dnc_handler<Base> {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto target = this->path_target(ex, ctx);
    if (!target)
      return ex->fail(target.err());
    auto& [t, number] = *target;
    ask_tenant<bool>(
        ctx.self, ex, t,
        [ex, n = number](bool removed) {
          if (!removed)
            return ex->fail(domain::not_found("Number not on the do-not-call list"));
          render_dnc(ex, 200, n, false, "Number removed from the do-not-call list");
        },
        std::make_tuple(actors::delete_atom::value, actors::do_not_call_change{number}));
  }
};

// GET .../do-not-call/{phone_number}: whether the number is listed.
template <class Base> class check_dnc_handler final : public dnc_handler<Base> {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto target = this->path_target(ex, ctx);
    if (!target)
      return ex->fail(target.err());
    const auto& [t, number] = *target;
    bool listed = storage::is_do_not_call(ctx.db(), t, number);
    render_dnc(ex, 200, number, listed,
               listed ? "Number is on the do-not-call list" : "Number is not on the list");
  }
};

} // namespace

std::shared_ptr<handler> add_do_not_call() {
  return std::make_shared<add_dnc_handler<handler>>();
}
std::shared_ptr<handler> remove_do_not_call() {
  return std::make_shared<remove_dnc_handler<handler>>();
}
std::shared_ptr<handler> check_do_not_call() {
  return std::make_shared<check_dnc_handler<handler>>();
}
std::shared_ptr<handler> operator_add_do_not_call() {
  return std::make_shared<add_dnc_handler<operator_handler>>();
}
std::shared_ptr<handler> operator_remove_do_not_call() {
  return std::make_shared<remove_dnc_handler<operator_handler>>();
}
std::shared_ptr<handler> operator_check_do_not_call() {
  return std::make_shared<check_dnc_handler<operator_handler>>();
}

} // namespace vcs::http::handlers
