#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace soci {
class session;
}

typedef struct pg_cancel PGcancel;

namespace vcs::storage {

// Lets another thread stop the statement a session's owner is running
// (libpq's PQcancel), and only while the job it was meant for still runs:
// the owner counts its jobs, and a cancel names the job it is for.
class statement_cancel {
public:
  statement_cancel() = default;
  ~statement_cancel();
  statement_cancel(const statement_cancel&) = delete;
  statement_cancel& operator=(const statement_cancel&) = delete;

  // The owner starts its next job; the n-th job started is job n.
  void begin();
  // The job runs on `sql`'s connection; a new connection (a reconnect)
  // gets a new cancel key, the same one keeps its key.
  void attach(soci::session& sql);
  // The job ended. Waits for a cancel in flight, so that it cannot reach
  // the owner's next job.
  void end();

  // Asks the server to cancel job `job` if it is still running: nothing
  // when the request was sent or the job is over, else libpq's reason.
  // Blocks for a connection to the server: call it off any thread that
  // others wait on.
  std::optional<std::string> cancel(std::uint64_t job);

private:
  std::mutex mutex_;
  PGcancel* key_ = nullptr;
  // The connection the key belongs to; only the owner's thread uses them.
  const void* conn_ = nullptr;
  int backend_ = 0;
  std::uint64_t started_ = 0;
  bool running_ = false;
};

} // namespace vcs::storage
