#pragma once

// A response body its handler's worker produces after the header, piece by
// piece (an export of any size in bounded memory). The session sends the
// header with chunked transfer coding and each piece as a chunk as it
// comes; the last chunk goes only when the worker finishes, so a client
// tells an export cut short (a connection closed without it) from a whole
// one.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace vcs::http {

class download {
public:
  // The session's side, once the header is written.
  class sink {
  public:
    virtual ~sink() = default;
    // Takes bytes to send; false when the connection has ended.
    virtual bool deliver(std::string bytes) = 0;
    // Bytes given to it and not sent yet.
    virtual std::size_t backlog() const = 0;
    // Whether the connection is still there.
    virtual bool open() const = 0;
    // Closes the connection once what it was given is sent.
    virtual void finish() = 0;
    // Closes the connection now.
    virtual void end() = 0;
  };

  // A worker waits at most `stall` for the header to go out and for the
  // client to read what waits, and keeps at most `most_waiting` bytes
  // waiting for it.
  explicit download(std::chrono::milliseconds stall = std::chrono::seconds{30},
                    std::size_t most_waiting = 256 * 1024)
      : stall_(stall), most_waiting_(most_waiting) {}
  // Cut short unless finished: a worker that stopped (an error, a deadline)
  // leaves the body without its last chunk.
  ~download();
  download(const download&) = delete;
  download& operator=(const download&) = delete;

  // The session: the header is written (`to` set) or could not be (null).
  void attach(std::shared_ptr<sink> to);

  // The worker: sends `piece` as a chunk once the header is out and the
  // client has read all but `most_waiting` bytes; false when the client is
  // gone or read nothing for `stall` (the worker stops; the connection
  // closes).
  bool push(std::string_view piece);
  // The worker: the last chunk; the connection closes once it is sent.
  void finish();

  // The session: bytes went out or the connection ended, so a worker
  // waiting for the client may go on.
  void progressed();

private:
  std::shared_ptr<sink> wait_for_sink();
  void cut_short();

  const std::chrono::milliseconds stall_;
  const std::size_t most_waiting_;
  std::mutex mtx_;
  std::condition_variable attached_;
  std::condition_variable progressed_;
  bool settled_ = false; // attach was called
  std::shared_ptr<sink> sink_;
  bool done_ = false; // finished or cut short
};

} // namespace vcs::http
