#include "app/json_log_formatter.hpp"

#include <fmt/chrono.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <spdlog/details/log_msg.h>

#include <chrono>
#include <ctime>

namespace vcs::app {

void json_log_formatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
  using namespace std::chrono;
  const auto seconds = time_point_cast<std::chrono::seconds>(msg.time);
  const auto micros = duration_cast<microseconds>(msg.time - seconds).count();
  const std::time_t t = system_clock::to_time_t(seconds);
  const auto level = spdlog::level::to_string_view(msg.level);
  fmt::format_to(std::back_inserter(dest),
                 R"({{"time":"{:%Y-%m-%dT%H:%M:%S}.{:06}Z","level":"{}",)", fmt::gmtime(t), micros,
                 std::string_view{level.data(), level.size()});
  const std::string_view payload{msg.payload.data(), msg.payload.size()};
  if (msg.logger_name == "access" && payload.size() > 2 && payload.front() == '{') {
    dest.append(payload.data() + 1, payload.data() + payload.size());
  } else {
    rapidjson::StringBuffer text;
    rapidjson::Writer<rapidjson::StringBuffer> w{text};
    w.String(payload.data(), static_cast<rapidjson::SizeType>(payload.size()));
    const std::string_view key{R"("msg":)"};
    dest.append(key.data(), key.data() + key.size());
    dest.append(text.GetString(), text.GetString() + text.GetSize());
    dest.push_back('}');
  }
  dest.push_back('\n');
}

std::unique_ptr<spdlog::formatter> json_log_formatter::clone() const {
  return std::make_unique<json_log_formatter>();
}

} // namespace vcs::app
