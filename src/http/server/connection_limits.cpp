#include "http/server/connection_limits.hpp"

namespace vcs::http {

connection_limits::verdict connection_limits::admit(const std::string& client, bool per_client) {
  std::lock_guard guard{mtx_};
  if (max_total_ != 0 && total_ >= max_total_)
    return verdict::full;
  if (!per_client) {
    ++total_;
    return verdict::admitted;
  }
  auto it = per_client_.find(client);
  if (max_per_client_ != 0 && it != per_client_.end() && it->second >= max_per_client_)
    return verdict::client_full;
  if (it == per_client_.end())
    it = per_client_.emplace(client, 0).first;
  ++it->second;
  ++total_;
  return verdict::admitted;
}

void connection_limits::release(const std::string& client, bool per_client) {
  std::lock_guard guard{mtx_};
  if (!per_client) {
    --total_;
    return;
  }
  auto it = per_client_.find(client);
  if (it == per_client_.end())
    return;
  --total_;
  if (--it->second == 0)
    per_client_.erase(it);
}

} // namespace vcs::http
