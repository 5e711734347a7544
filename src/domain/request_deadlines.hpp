#pragma once

#include <chrono>

namespace vcs::domain {

// A request's timing, all from the one setting actor-timeout-ms, in the
// order the parts give up. A write that outlives the client's answer still
// reports its real outcome, so its Idempotency-Key learns whether it
// committed; only past `abandon` can a retry take the key over (its node
// died before the outcome was stored).
struct request_deadlines {
  // The client is answered by then: 503 when the work is still running.
  std::chrono::milliseconds answer;
  // An entity actor waits this long for a database worker's verdict.
  std::chrono::milliseconds database;
  // A request worker waits this long for an entity actor's reply.
  std::chrono::milliseconds settle;
  // An unsettled Idempotency-Key claim is taken over after this.
  std::chrono::milliseconds abandon;
};

constexpr request_deadlines deadlines_for(std::chrono::milliseconds actor_timeout) {
  return {actor_timeout, actor_timeout * 3, actor_timeout * 4,
          actor_timeout * 4 + std::chrono::seconds{30}};
}

} // namespace vcs::domain
