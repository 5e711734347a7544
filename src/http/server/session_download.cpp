// A session that answered with a download (download.hpp): the connection
// carries the body's chunks as its worker delivers them, then closes.

#include "http/server/session.hpp"

namespace vcs::http {

void session::finish() {
  net::post(stream_.get_executor(), [self = shared_from_this()] {
    self->close_when_sent_ = true;
    if (!self->writing_ && self->pending_.empty())
      self->end_stream();
  });
}

void session::start_download(outbound_response r) {
  // As for an event stream, the connection is the body's from here on.
  busy_ = false;
  parser_.reset();
  buffer_.consume(buffer_.size());
  stream_.expires_never();
  download_ = r.download_body;
  auto header = std::make_shared<bhttp::response<bhttp::empty_body>>();
  set_header(*header, r);
  header->chunked(true);
  header->keep_alive(false);
  auto writer = std::make_shared<bhttp::response_serializer<bhttp::empty_body>>(*header);
  bhttp::async_write_header(stream_, *writer,
                            [self = shared_from_this(), header, writer,
                             body = std::move(r.download_body)](beast::error_code ec, std::size_t) {
                              if (ec) {
                                body->attach(nullptr);
                                return self->end_stream();
                              }
                              self->watch_peer();
                              body->attach(self);
                            });
}

} // namespace vcs::http
