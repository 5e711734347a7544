#pragma once

// A request on its way from a connection to a request worker and back,
// free of Beast types.

#include "http/server/member_cookie.hpp"
#include "http/server/routed_request.hpp"
#include "storage/event_repository.hpp"

#include <caf/allowed_unsafe_message_type.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vcs::http {

// The rest of a request, handed back to its request worker after a step
// that ran elsewhere (on the CPU pool).
struct worker_task {
  std::function<void()> run;
};

// Which listener a request came in on.
enum class listener_kind : uint8_t { public_api, operator_api };

// A parsed HTTP request, free of Beast types so actors never see them.
struct inbound_request {
  listener_kind listener = listener_kind::public_api;
  std::string method;
  std::string target;
  std::string authorization;
  // A session cookie (member_cookie.hpp), a member's or a client user's,
  // and what a state-changing browser request is checked by: its Origin and
  // Host, and its X-CSRF-Token (public listener only).
  std::string session_token;
  session_kind session = session_kind::console;
  std::string origin;
  std::string host;
  std::string csrf_token;
  // The Sec-Fetch-Site header a browser sends ("same-origin", "cross-site",
  // ...); empty when not sent.
  std::string fetch_site;
  // The client's address (the sign-in throttle counts by it).
  std::string address;
  // Where a reconnecting event stream left off (the Last-Event-ID header).
  std::optional<std::string> last_event_id;
  // The Idempotency-Key header, when sent.
  std::optional<std::string> idempotency_key;
  // A voice provider's callback: the header its route names as its proof
  // (handler::proof_header), when sent.
  std::optional<std::string> provider_proof;
  std::string content_type;
  std::string body;
  // A bulk body's share of large-body-memory, given back with the request.
  std::shared_ptr<void> body_lease;
  std::string request_id;
  std::chrono::steady_clock::time_point received;
  // Whose share of the workers it takes (fair_queue.hpp).
  std::uint64_t share = 0;
  // Only the header of a bulk request whose key this node does not know:
  // the worker authenticates it and answers 100 (read the body) or the
  // refusal, so an unknown key's body is never read.
  bool authenticate_only = false;
};

class event_hub;

// An answer that stays open as a server-sent-event stream: the session
// sends its header, then the tenant's events from `after` as the hub finds
// them, until the client goes. `slot` is the stream's place among its
// tenant's (event_hub::admit).
struct event_stream_start {
  std::shared_ptr<event_hub> hub;
  int64_t tenant_id = 0;
  storage::event_cursor after;
  std::optional<std::vector<int64_t>> campaigns;
  // The key's or the session token's hash, and which (event_hub::credential).
  std::string credential_hash;
  bool by_session = false;
  std::shared_ptr<void> slot;
};

class download;

struct outbound_response {
  unsigned status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<event_stream_start> stream;
  // A body its handler's worker sends after the header (download.hpp).
  std::shared_ptr<download> download_body;
};

// One request and the way back to its connection: `reply` posts the response
// to the session's executor and may be called from any thread, once.
struct http_call {
  inbound_request request;
  routed_request routed;
  std::function<void(outbound_response)> reply;
};

} // namespace vcs::http

// Closures over one process's memory: never sent to another node.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::http::worker_task)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::http::http_call)
