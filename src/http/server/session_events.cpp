// A session that answered GET /api/v2/events/stream: the connection stays
// open and carries the tenant's events as server-sent events
// (https://html.spec.whatwg.org/multipage/server-sent-events.html).

#include "http/server/session.hpp"

namespace vcs::http {

namespace {

// A comment line this often keeps proxies from closing an idle stream and
// finds a client that is gone.
constexpr std::chrono::seconds beat_interval{15};
// A write that has not finished by then means the client stopped reading.
constexpr std::chrono::seconds most_write_time{30};
// Asks a reconnecting EventSource to wait this long (milliseconds).
constexpr std::string_view retry_frame = "retry: 2000\n\n";

} // namespace

bool session::deliver(std::string frames) {
  if (stream_ended_)
    return false;
  backlog_ += frames.size();
  net::post(stream_.get_executor(),
            [self = shared_from_this(), frames = std::move(frames)]() mutable {
              self->queue_frames(std::move(frames));
            });
  return true;
}

void session::end() {
  net::post(stream_.get_executor(), [self = shared_from_this()] { self->end_stream(); });
}

void session::start_stream(outbound_response r) {
  // From here on no request is read: the connection is the stream's, and a
  // shutdown closes it at once.
  busy_ = false;
  parser_.reset();
  buffer_.consume(buffer_.size());
  stream_.expires_never();
  auto header = std::make_shared<bhttp::response<bhttp::empty_body>>();
  r.status = 200; // a stream starts; whatever ends it comes as events
  set_header(*header, r);
  header->set("X-Accel-Buffering", "no");
  // No length: the body runs until the connection closes.
  header->keep_alive(false);
  auto writer = std::make_shared<bhttp::response_serializer<bhttp::empty_body>>(*header);
  bhttp::async_write_header(
      stream_, *writer,
      [self = shared_from_this(), header, writer,
       start = std::move(*r.stream)](beast::error_code ec, std::size_t) mutable {
        if (ec)
          return self->end_stream();
        self->follow_events(std::move(start));
      });
}

void session::follow_events(event_stream_start start) {
  if (closing_)
    return end_stream();
  stream_slot_ = std::move(start.slot);
  backlog_ += retry_frame.size();
  queue_frames(std::string{retry_frame});
  std::shared_ptr<event_hub::sink> me = shared_from_this();
  start.hub->follow(start.tenant_id, start.after, std::move(start.campaigns),
                    {start.by_session, std::move(start.credential_hash)}, me);
  watch_peer();
  beat_ = std::make_unique<net::steady_timer>(stream_.get_executor());
  beat();
}

void session::queue_frames(std::string frames) {
  if (stream_ended_)
    return;
  pending_ += frames;
  if (!writing_)
    write_frames();
}

void session::write_frames() {
  writing_ = true;
  sending_ = std::move(pending_);
  pending_.clear();
  write_started_ = std::chrono::steady_clock::now();
  net::async_write(stream_, net::buffer(sending_),
                   [self = shared_from_this()](beast::error_code ec, std::size_t) {
                     self->backlog_ -= std::min(self->backlog_.load(), self->sending_.size());
                     self->writing_ = false;
                     self->tell_download();
                     if (ec)
                       return self->end_stream();
                     if (!self->pending_.empty())
                       self->write_frames();
                     else if (self->close_when_sent_)
                       self->end_stream();
                   });
}

// The client sends nothing on a stream: whatever it sends, or its closing,
// ends it.
void session::watch_peer() {
  drain_ = std::make_unique<std::array<char, 65536>>();
  stream_.async_read_some(
      net::buffer(*drain_),
      [self = shared_from_this()](beast::error_code, std::size_t) { self->end_stream(); });
}

void session::beat() {
  beat_->expires_after(beat_interval);
  beat_->async_wait([self = shared_from_this()](beast::error_code ec) {
    if (ec || self->stream_ended_)
      return;
    if (self->writing_ && std::chrono::steady_clock::now() - self->write_started_ > most_write_time)
      return self->end_stream();
    if (!self->writing_ && self->pending_.empty()) {
      self->backlog_ += 3;
      self->queue_frames(":\n\n");
    }
    self->beat();
  });
}

void session::end_stream() {
  if (stream_ended_.exchange(true))
    return;
  stream_slot_.reset();
  close();
  tell_download();
}

void session::tell_download() {
  if (auto body = download_.lock())
    body->progressed();
}

} // namespace vcs::http
