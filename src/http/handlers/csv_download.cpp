#include "http/handlers/csv_download.hpp"

#include "http/server/download.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>

namespace vcs::http::handlers {

namespace {

// The longest an export runs.
constexpr std::chrono::minutes most_export_time{30};

} // namespace

void stream_csv(const exchange_ptr& ex, const std::string& filename, std::string_view header_row,
                const std::function<bool(std::string& rows)>& next_batch) {
  auto body = std::make_shared<download>();
  outbound_response r;
  r.content_type = "text/csv; charset=utf-8";
  r.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + filename + "\"");
  r.download_body = body;
  ex->respond(std::move(r));
  const auto stop_at = std::chrono::steady_clock::now() + most_export_time;
  std::string piece{header_row};
  for (;;) {
    const bool more = next_batch(piece);
    if (!body->push(piece))
      return;
    piece.clear();
    if (!more)
      break;
    if (std::chrono::steady_clock::now() > stop_at) {
      spdlog::warn("request_id={} route=\"{}\": the export stopped after {} minutes",
                   ex->request.request_id, ex->route, most_export_time.count());
      return;
    }
  }
  body->finish();
}

} // namespace vcs::http::handlers
