#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace vcs::test {

// Polls `done` every 20 ms until it holds or `limit` passes; its last answer.
inline bool eventually(const std::function<bool()>& done,
                       std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done())
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

} // namespace vcs::test
