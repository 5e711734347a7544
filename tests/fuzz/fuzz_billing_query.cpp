// Query strings of the list endpoints: the external billing lists (client_id,
// status and type filters, page and page_size), the lead list (limit,
// offset) and the call list (campaign_lead_id, outcome, status, from, to,
// page and page_size). The bytes are what follows '?' in the request target.

#include "request_shapes.hpp"

#include "http/inputs/query.hpp"

#include <cstdint>
#include <string>

using namespace vcs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string query{reinterpret_cast<const char*>(data), size};
  auto t = http::parse_target("/api/v2/external-billing/payment-requests?" + query);
  if (!t)
    return 0; // 400 Invalid request target
  fuzz::billing_query(*t, fuzz::billing_list::payment_requests);
  fuzz::billing_query(*t, fuzz::billing_list::subscriptions);
  fuzz::billing_query(*t, fuzz::billing_list::usage);
  fuzz::lead_list_query(*t);
  fuzz::call_list_query(*t);
  return 0;
}
