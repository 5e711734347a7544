#include "outbound/inquiry_reply.hpp"

#include "outbound/report_members.hpp"
#include "json/json.hpp"

namespace vcs::outbound {

namespace {

constexpr std::size_t list_response_limit = 2 * 1024 * 1024;

actors::inquiry_result failed(actors::inquiry_outcome outcome, int status, std::string detail) {
  actors::inquiry_result r;
  r.outcome = outcome;
  r.vendor_status = status;
  r.detail = std::move(detail);
  return r;
}

actors::inquiry_result read_answer(const actors::outbound_result& answer, std::string_view kind,
                                   const listing_reader& read) {
  using actors::inquiry_outcome;
  const std::string who{kind};
  if (answer.status == 0)
    return failed(inquiry_outcome::unreachable, 0, who + ": no answer (" + answer.error + ")");
  if (answer.status == 401 || answer.status == 403)
    return failed(inquiry_outcome::credentials_refused, answer.status,
                  who + " refused the credentials (HTTP " + std::to_string(answer.status) + ")");
  if (answer.status < 200 || answer.status > 299)
    return failed(inquiry_outcome::unexpected_answer, answer.status,
                  who + " answered HTTP " + std::to_string(answer.status));
  actors::inquiry_result r;
  r.vendor_status = answer.status;
  if (!read) {
    r.detail = who + " accepted the credentials";
    return r;
  }
  if (answer.truncated)
    return failed(inquiry_outcome::unexpected_answer, answer.status,
                  who + "'s answer was larger than this service reads");
  auto doc = json::parse_json(answer.body);
  auto listing = doc ? read(*doc) : std::nullopt;
  if (!listing)
    return failed(inquiry_outcome::unexpected_answer, answer.status,
                  who + "'s answer is not the list its documentation describes");
  r.truncated = listing->more || listing->items.size() > actors::inquiry_items_max;
  if (listing->items.size() > actors::inquiry_items_max)
    listing->items.resize(actors::inquiry_items_max);
  r.items = std::move(listing->items);
  return r;
}

} // namespace

actors::outbound_post inquiry_request(const actors::provider_inquiry& q, std::string url,
                                      std::pair<std::string, std::string> auth) {
  actors::outbound_post request;
  request.tenant_id = q.tenant_id;
  request.url = std::move(url);
  request.headers = {std::move(auth), {"Accept", "application/json"}};
  request.get = true;
  const bool verify = q.what == actors::inquiry_kind::verify;
  request.timeout = verify ? std::chrono::seconds{5} : std::chrono::seconds{10};
  if (!verify)
    request.response_limit = list_response_limit;
  return request;
}

void send_inquiry(outbound_client& client, actors::outbound_post request, std::string_view kind,
                  listing_reader read, actors::inquiry_done done) {
  client.post(std::move(request),
              [kind = std::string{kind}, read = std::move(read), done = std::move(done)](
                  actors::outbound_result answer) { done(read_answer(answer, kind, read)); });
}

actors::inquiry_result unreadable_credentials(std::string_view kind) {
  return failed(actors::inquiry_outcome::unexpected_answer, 0,
                std::string{kind} + ": the stored credentials cannot be read; register them again");
}

std::optional<vendor_listing> items_of(const rapidjson::Value* array, const char* id,
                                       const char* name, const char* number) {
  if (!array || !array->IsArray())
    return std::nullopt;
  vendor_listing out;
  for (const auto& v : array->GetArray()) {
    if (!v.IsObject())
      continue;
    auto item_id = string_member(v, id);
    if (!item_id || item_id->empty())
      continue;
    actors::inquiry_item item;
    item.id = std::move(*item_id);
    if (name)
      item.name = string_member(v, name);
    if (number)
      item.number = string_member(v, number);
    out.items.push_back(std::move(item));
    // One past the most kept says there are more.
    if (out.items.size() > actors::inquiry_items_max)
      break;
  }
  return out;
}

} // namespace vcs::outbound
