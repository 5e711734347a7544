#pragma once

#include <spdlog/formatter.h>

namespace vcs::app {

// log-format = json: each line one JSON object, {"time":…,"level":…,"msg":…}.
// Lines of the "access" logger carry their fields as a JSON object
// (http::log_access), spliced in after the time and level.
class json_log_formatter final : public spdlog::formatter {
public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
  std::unique_ptr<spdlog::formatter> clone() const override;
};

} // namespace vcs::app
