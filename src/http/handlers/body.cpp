#include "http/handlers/body.hpp"

#include "domain/global_id.hpp"

namespace vcs::http::handlers {

domain::result<rapidjson::Document> object_body(const exchange_ptr& ex) {
  auto doc = parse_json(ex->request.body);
  if (!doc)
    return domain::error{domain::errc::bad_request, "Invalid data"}.with_errors(
        {"Request body is not valid JSON"});
  if (!doc->IsObject())
    return domain::error{domain::errc::bad_request, "Invalid data"}.with_errors(
        {"Request body must be a JSON object"});
  return std::move(*doc);
}

std::optional<int64_t> client_reference(object_reader& in, domain::field_errors& errors) {
  auto ref = in.string("client_id", true, 128);
  if (!ref)
    return std::nullopt;
  auto id = domain::parse_id(domain::entity::client, *ref);
  if (!id)
    errors.add("client_id", "Not a client id.");
  return id;
}

domain::result<domain::timestamp> as_of_body(const exchange_ptr& ex, bool test_clock) {
  auto now = domain::now();
  if (ex->request.body.empty())
    return now;
  auto body = object_body(ex);
  if (!body)
    return body.err();
  domain::field_errors errors;
  object_reader in{*body, errors};
  if (auto text = in.string("now", false, 40)) {
    // A sweep or a round acts on every tenant: a made-up instant would
    // mark real payments overdue or call outside real windows.
    if (!test_clock)
      return domain::error{domain::errc::forbidden,
                           "A now other than the server clock is accepted only with the setting "
                           "allow-test-clock (VCS_ALLOW_TEST_CLOCK=true), made for tests; leave "
                           "now out to act as of the clock"};
    if (auto t = domain::parse_iso8601(*text))
      now = *t;
    else
      errors.add("now", "Enter an ISO 8601 timestamp.");
  }
  if (!errors.empty())
    return validation_error(std::move(errors));
  return now;
}

domain::error validation_error(domain::field_errors errors) {
  return domain::error{domain::errc::bad_request, "Validation error"}.with_field_errors(
      std::move(errors));
}

} // namespace vcs::http::handlers
