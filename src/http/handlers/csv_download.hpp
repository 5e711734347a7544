#pragma once

// The CSV exports' answer: a download (http/server/download.hpp) of text/csv
// that the handler's worker writes batch by batch.

#include "http/work/handler.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace vcs::http::handlers {

// Answers `ex` with `filename`, then sends `header_row` and each batch of
// rows `next_batch` appends to its argument, one chunk a batch, until it
// says no more remain (false), the client goes or stalls, or 30 minutes
// pass; an export that stops early ends without the last chunk.
void stream_csv(const exchange_ptr& ex, const std::string& filename, std::string_view header_row,
                const std::function<bool(std::string& rows)>& next_batch);

} // namespace vcs::http::handlers
