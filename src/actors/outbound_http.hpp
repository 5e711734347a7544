#pragma once

// Outbound HTTP as the actors see it (webhooks, provider APIs): a request
// and a callback, so Beast stays inside src/http, which implements it.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace vcs::actors {

struct outbound_post {
  // Whose request it is: names are resolved on that tenant's share.
  std::int64_t tenant_id = 0;
  std::string url; // http:// or https://
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds timeout{10'000};
  // A POST unless this says GET (which sends no body).
  bool get = false;
  // The most of the response body kept; the rest is not read.
  std::size_t response_limit = 64 * 1024;
};

struct outbound_result {
  int status = 0;         // 0 when no response came
  std::string body;       // at most the request's response_limit
  std::string error;      // why no response came
  bool truncated = false; // the body was longer than the limit
};

// Sends the POST without blocking; `done` runs once, on an I/O thread.
using http_poster =
    std::function<void(outbound_post request, std::function<void(outbound_result)> done)>;

} // namespace vcs::actors
