#pragma once

// Bearer tokens this node does not know yet (token_book), in flight per
// client address. Each costs a database read before it is known, so one
// address may have only so many different ones at once; a new key's burst is
// one token however many requests it sends.

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace vcs::http {

class unseen_keys : public std::enable_shared_from_this<unseen_keys> {
public:
  explicit unseen_keys(std::size_t per_address) : per_address_(per_address) {}

  // Counts a request of `key_hash` from `address` until the returned lease
  // goes; null when the address already has its most other tokens in
  // flight.
  std::shared_ptr<void> admit(const std::string& address, const std::string& key_hash);

private:
  void release(const std::string& address, const std::string& key_hash);

  std::size_t per_address_;
  std::mutex mutex_;
  // Requests in flight by address and token.
  std::map<std::string, std::map<std::string, std::size_t>> in_flight_;
};

} // namespace vcs::http
