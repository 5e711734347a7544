#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace vcs::test {

// A tiny HTTP server on a free loopback port that records every request it
// gets and answers each with the status set by `respond_with` (one request
// per connection). A `{n}` in the answer's body becomes the request's number
// (1 for the first received), for vendors whose answers name each call.
class webhook_receiver {
public:
  struct request {
    std::string method;
    std::string target;
    std::map<std::string, std::string> headers; // lower-case names
    std::string body;
  };

  webhook_receiver();
  ~webhook_receiver();
  webhook_receiver(const webhook_receiver&) = delete;
  webhook_receiver& operator=(const webhook_receiver&) = delete;

  unsigned short port() const noexcept { return port_; }
  std::string url(const std::string& path = "/hook") const;
  void respond_with(int status, std::string body = "ok") {
    std::lock_guard<std::mutex> guard{mutex_};
    status_ = status;
    body_ = std::move(body);
  }
  std::vector<request> received() const;

private:
  void serve();

  int listen_fd_ = -1;
  unsigned short port_ = 0;
  int status_ = 200;
  std::string body_ = "ok";
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::vector<request> received_;
  std::thread thread_;
};

} // namespace vcs::test
