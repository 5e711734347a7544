#include "http/server/unseen_keys.hpp"

namespace vcs::http {

std::shared_ptr<void> unseen_keys::admit(const std::string& address, const std::string& key_hash) {
  {
    std::lock_guard lock{mutex_};
    auto& tokens = in_flight_[address];
    auto it = tokens.find(key_hash);
    if (it == tokens.end()) {
      if (tokens.size() >= per_address_) {
        if (tokens.empty())
          in_flight_.erase(address);
        return nullptr;
      }
      it = tokens.emplace(key_hash, 0).first;
    }
    ++it->second;
  }
  // Not null, so that the lease tests true.
  return std::shared_ptr<void>(
      static_cast<void*>(this),
      [self = shared_from_this(), address, key_hash](void*) { self->release(address, key_hash); });
}

void unseen_keys::release(const std::string& address, const std::string& key_hash) {
  std::lock_guard lock{mutex_};
  auto at = in_flight_.find(address);
  if (at == in_flight_.end())
    return;
  auto it = at->second.find(key_hash);
  if (it != at->second.end() && --it->second == 0)
    at->second.erase(it);
  if (at->second.empty())
    in_flight_.erase(at);
}

} // namespace vcs::http
