#pragma once

// How a live adapter asks its vendor something outside a call (the
// credentials, the account's assistants and numbers) and reads the answer
// into an actors::inquiry_result.

#include "actors/provider_inquiry.hpp"
#include "outbound/outbound_client.hpp"

#include <rapidjson/document.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vcs::outbound {

// Items read from a vendor's list, and whether it says there are more.
struct vendor_listing {
  std::vector<actors::inquiry_item> items;
  bool more = false;
};

// Reads a 2xx JSON answer; nullopt when it is not the documented shape.
using listing_reader = std::function<std::optional<vendor_listing>(const rapidjson::Value&)>;

// A GET of `url` with the vendor's key in `auth` on the tenant's share,
// under a short deadline (5 s for a verify, 10 s for a list; a page is
// waiting) and a bounded answer (2 MiB for a list, whose items the vendors
// send whole).
actors::outbound_post inquiry_request(const actors::provider_inquiry& q, std::string url,
                                      std::pair<std::string, std::string> auth);

// Sends it: a 401 or 403 is credentials_refused, no answer unreachable,
// any other non-2xx, an answer over its limit or one `read` cannot read
// unexpected_answer; otherwise ok, with at most inquiry_items_max of the
// items read (truncated past them, or when the vendor says there are
// more). A verify passes no reader: any 2xx is ok.
void send_inquiry(outbound_client& client, actors::outbound_post request, std::string_view kind,
                  listing_reader read, actors::inquiry_done done);

// The answer for credentials that cannot be opened (sealed under a key
// this service no longer holds).
actors::inquiry_result unreadable_credentials(std::string_view kind);

// The objects of `array` as items: `id` (a string, required; items
// without one are skipped), `name` and `number` (strings, when the vendor
// has such a member and sends it);
// nullopt when `array` is not an array.
std::optional<vendor_listing> items_of(const rapidjson::Value* array, const char* id,
                                       const char* name, const char* number = nullptr);

} // namespace vcs::outbound
