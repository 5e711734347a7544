#pragma once

#include "http_client.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>

namespace vcs::test {

// One server-sent event as a client reads it.
struct sse_event {
  std::string id;
  std::string type;
  std::string data;
};

// A GET of an event stream on its own connection, read event by event.
class sse_reader {
public:
  sse_reader(unsigned short port, const std::string& target, const header_list& headers);
  ~sse_reader();
  sse_reader(const sse_reader&) = delete;
  sse_reader& operator=(const sse_reader&) = delete;

  unsigned status() const noexcept { return status_; }
  // A header of the answer by its lower-case name; empty when absent.
  std::string header(const std::string& lower_name) const;
  // The body of an answer that is not a stream (an error's JSON).
  const std::string& rest() const noexcept { return buffer_; }
  // The next event, or nullopt when none came within `wait` or the server
  // closed the stream.
  std::optional<sse_event> next(std::chrono::milliseconds wait);
  // The same, passing over frames without an id (campaign.progress): the
  // next event of the feed.
  std::optional<sse_event> next_feed_event(std::chrono::milliseconds wait);
  // Ends the stream from the client's side.
  void close();
  // True once either side closed the connection.
  bool ended() const noexcept { return fd_ < 0; }

private:
  bool fill(std::chrono::steady_clock::time_point until);

  int fd_ = -1;
  unsigned status_ = 0;
  std::map<std::string, std::string> headers_;
  std::string buffer_;
};

} // namespace vcs::test
