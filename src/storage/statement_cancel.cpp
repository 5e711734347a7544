#include "storage/statement_cancel.hpp"

#include "storage/prepared.hpp"

#include <libpq-fe.h>

#include <array>

namespace vcs::storage {

statement_cancel::~statement_cancel() {
  if (key_)
    PQfreeCancel(key_);
}

void statement_cancel::begin() {
  std::lock_guard lock{mutex_};
  ++started_;
  running_ = true;
}

void statement_cancel::attach(soci::session& sql) {
  auto* conn = raw_connection(sql);
  // A reconnect may reuse the connection's address, never its backend.
  const int backend = conn ? PQbackendPID(conn) : 0;
  if (conn == conn_ && backend == backend_)
    return;
  auto* key = conn ? PQgetCancel(conn) : nullptr;
  std::lock_guard lock{mutex_};
  if (key_)
    PQfreeCancel(key_);
  key_ = key;
  conn_ = conn;
  backend_ = backend;
}

void statement_cancel::end() {
  std::lock_guard lock{mutex_};
  running_ = false;
}

std::optional<std::string> statement_cancel::cancel(std::uint64_t job) {
  std::lock_guard lock{mutex_};
  if (!running_ || started_ != job || !key_)
    return std::nullopt;
  std::array<char, 256> why{};
  if (PQcancel(key_, why.data(), static_cast<int>(why.size())) == 1)
    return std::nullopt;
  return std::string{why.data()};
}

} // namespace vcs::storage
