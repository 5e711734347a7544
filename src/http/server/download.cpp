#include "http/server/download.hpp"

#include <cstdio>

namespace vcs::http {

namespace {

std::string chunk_of(std::string_view piece) {
  char size[20];
  std::snprintf(size, sizeof size, "%zx\r\n", piece.size());
  std::string out{size};
  out.reserve(out.size() + piece.size() + 2);
  out.append(piece);
  out.append("\r\n");
  return out;
}

} // namespace

download::~download() {
  cut_short();
}

void download::attach(std::shared_ptr<sink> to) {
  {
    std::lock_guard lock{mtx_};
    settled_ = true;
    sink_ = std::move(to);
  }
  attached_.notify_all();
}

std::shared_ptr<download::sink> download::wait_for_sink() {
  std::unique_lock lock{mtx_};
  attached_.wait_for(lock, stall_, [this] { return settled_; });
  return done_ ? nullptr : sink_;
}

bool download::push(std::string_view piece) {
  if (piece.empty())
    return true;
  auto to = wait_for_sink();
  if (!to)
    return false;
  bool read = false;
  {
    // Woken by progressed() as the client reads.
    std::unique_lock lock{mtx_};
    read = progressed_.wait_for(lock, stall_,
                                [&] { return to->backlog() <= most_waiting_ || !to->open(); });
  }
  if (!read) {
    cut_short();
    return false;
  }
  return to->open() && to->deliver(chunk_of(piece));
}

void download::finish() {
  auto to = wait_for_sink();
  std::lock_guard lock{mtx_};
  if (done_ || !to)
    return;
  done_ = true;
  if (to->deliver("0\r\n\r\n"))
    to->finish();
}

void download::progressed() {
  {
    // Between its check and its wait a worker holds the mutex: taking it
    // here keeps the notice from falling between the two.
    std::lock_guard lock{mtx_};
  }
  progressed_.notify_all();
}

void download::cut_short() {
  std::lock_guard lock{mtx_};
  if (done_)
    return;
  done_ = true;
  if (sink_)
    sink_->end();
}

} // namespace vcs::http
