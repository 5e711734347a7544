#include "http/server/access_log.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <spdlog/spdlog.h>

namespace vcs::http {
namespace {

log_format format_ = log_format::text;
std::shared_ptr<spdlog::logger> logger_;

// The entry's fields as one JSON object, which the JSON formatter of the
// access logger splices after the time and level.
std::string json_fields(const access_entry& e) {
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> w{out};
  w.StartObject();
  w.Key("msg");
  w.String("access");
  w.Key("method");
  w.String(e.method.data(), static_cast<rapidjson::SizeType>(e.method.size()));
  w.Key("route");
  w.String(e.route.data(), static_cast<rapidjson::SizeType>(e.route.size()));
  w.Key("status");
  w.Uint(e.status);
  if (e.latency) {
    w.Key("latency_us");
    w.Int64(e.latency->count());
  }
  w.Key("request_id");
  w.String(e.request_id.data(), static_cast<rapidjson::SizeType>(e.request_id.size()));
  w.Key("client");
  w.String(e.client.data(), static_cast<rapidjson::SizeType>(e.client.size()));
  w.Key("tenant_id");
  if (e.tenant_id)
    w.Int64(*e.tenant_id);
  else
    w.Null();
  if (!e.reason.empty()) {
    w.Key("reason");
    w.String(e.reason.data(), static_cast<rapidjson::SizeType>(e.reason.size()));
  }
  w.EndObject();
  return {out.GetString(), out.GetSize()};
}

std::string text_fields(const access_entry& e) {
  auto line = fmt::format("access method={} route=\"{}\" status={}", e.method, e.route, e.status);
  if (e.latency)
    line += fmt::format(" latency_us={}", e.latency->count());
  line += fmt::format(" request_id={} client={} tenant={}", e.request_id, e.client,
                      e.tenant_id ? std::to_string(*e.tenant_id) : "-");
  if (!e.reason.empty())
    line += fmt::format(" reason=\"{}\"", e.reason);
  return line;
}

} // namespace

void set_access_log(log_format format, std::shared_ptr<spdlog::logger> logger) {
  format_ = format;
  logger_ = std::move(logger);
}

void log_access(const access_entry& entry) {
  auto& logger = logger_ ? *logger_ : *spdlog::default_logger_raw();
  if (!logger.should_log(spdlog::level::info))
    return;
  logger.info(format_ == log_format::json ? json_fields(entry) : text_fields(entry));
}

} // namespace vcs::http
