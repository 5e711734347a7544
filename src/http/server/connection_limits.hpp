#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace vcs::http {

// Open connections of one listener, in all and per client address, so slow
// or greedy clients cannot take every connection (and file descriptor).
class connection_limits {
public:
  // 0 means no limit.
  connection_limits(std::size_t max_total, std::size_t max_per_client)
      : max_total_(max_total), max_per_client_(max_per_client) {}

  enum class verdict { admitted, full, client_full };

  // Counts the connection when admitted, against the client's own limit
  // when `per_client` (a trusted proxy's connection that names no client has
  // none); release() with the same arguments uncounts it.
  verdict admit(const std::string& client, bool per_client);
  void release(const std::string& client, bool per_client);

private:
  std::size_t max_total_;
  std::size_t max_per_client_;
  std::mutex mtx_;
  std::size_t total_ = 0;
  std::unordered_map<std::string, std::size_t> per_client_;
};

} // namespace vcs::http
