// GET /api/v2/voice-campaigns/{campaign_id}/calls/export: a campaign's calls
// as text/csv, with the call list's filters, oldest first, at any size: the
// worker reads them a batch at a time and sends each batch as it is written
// (http/server/download.hpp), so memory stays at a batch whatever the count.

#include "domain/billing.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/csv_row.hpp"
#include "http/server/download.hpp"
#include "storage/call_repository.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

namespace vcs::http::handlers {

namespace {

// Calls read per statement, and the longest an export runs: one cut short
// ends without its last chunk.
constexpr int32_t batch_calls = 500;
constexpr std::chrono::minutes most_export_time{30};

constexpr std::string_view header_row =
    "call_id,campaign_lead_id,phone_number,phone_number_id,attempt,status,outcome,error,"
    "provider_call_id,started_at,ringing_at,ended_at,billed_seconds,billed_minutes,ended_reason,"
    "summary,recording_url,success_evaluation,structured_data,cost\r\n";

std::optional<std::string> time_text(const std::optional<domain::timestamp>& t) {
  if (!t)
    return std::nullopt;
  return domain::format_utc(*t);
}

// One call as the list renders it, but the transcript (read the call for
// it); structured_data as its JSON text.
void append_call(std::string& out, const storage::call_record& c) {
  const auto& r = c.result;
  csv_row{out}
      .value(std::to_string(c.id))
      .value(domain::encode_global_id(domain::entity::lead, c.lead_id))
      .value(c.phone_number)
      .text(c.phone_number_id)
      .value(c.attempt)
      .value(c.status)
      .value(c.outcome)
      .text(c.error)
      .text(c.provider_call_id)
      .value(domain::format_utc(c.created_at))
      .value(time_text(c.ringing_at))
      .value(time_text(c.ended_at))
      .value(c.duration_seconds)
      .value(domain::from_units(
          domain::billable_hundredths(std::chrono::seconds{c.duration_seconds}), 2, 2))
      .text(r.ended_reason)
      .text(r.summary)
      .text(r.recording_url)
      .text(r.success_evaluation)
      .text(r.structured_data)
      .value(r.cost)
      .end();
}

class export_campaign_calls_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto c = path_campaign(ex, ctx);
    if (!c)
      return ex->fail(c.err());
    auto f = read_call_filter(ex->target);
    if (!f)
      return ex->fail(f.err());
    auto body = std::make_shared<download>();
    outbound_response r;
    r.content_type = "text/csv; charset=utf-8";
    r.headers.emplace_back("Content-Disposition",
                           "attachment; filename=\"calls-" +
                               domain::encode_global_id(domain::entity::campaign, c->id) +
                               ".csv\"");
    r.download_body = body;
    ex->respond(std::move(r));
    const auto stop_at = std::chrono::steady_clock::now() + most_export_time;
    std::string piece{header_row};
    int64_t after = 0;
    for (;;) {
      auto calls =
          storage::export_campaign_calls(ctx.db(), c->tenant_id, c->id, *f, after, batch_calls);
      for (const auto& call : calls)
        append_call(piece, call);
      if (!calls.empty())
        after = calls.back().id;
      if (!body->push(piece))
        return;
      piece.clear();
      if (calls.size() < static_cast<std::size_t>(batch_calls))
        break;
      if (std::chrono::steady_clock::now() > stop_at) {
        spdlog::warn("request_id={}: the calls export of campaign {} stopped after {} minutes",
                     ex->request.request_id, c->id, most_export_time.count());
        return;
      }
    }
    body->finish();
  }
};

} // namespace

std::shared_ptr<handler> export_campaign_calls() {
  return std::make_shared<export_campaign_calls_handler>();
}

} // namespace vcs::http::handlers
