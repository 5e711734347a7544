// GET /api/v2/voice-campaigns/{campaign_id}/calls/export: a campaign's calls
// as text/csv, with the call list's filters, oldest first, at any size: the
// worker reads them a batch at a time and sends each batch as it is written
// (csv_download.hpp), so memory stays at a batch whatever the count.

#include "domain/billing.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/csv_download.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/csv_row.hpp"
#include "storage/call_repository.hpp"

#include <chrono>

namespace vcs::http::handlers {

namespace {

// Calls read per statement.
constexpr int32_t batch_calls = 500;

constexpr std::string_view header_row =
    "call_id,campaign_lead_id,phone_number,phone_number_id,attempt,status,outcome,error,"
    "provider_call_id,started_at,ringing_at,ended_at,billed_seconds,billed_minutes,ended_reason,"
    "summary,recording_url,success_evaluation,structured_data,cost\r\n";

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
      .time(c.created_at, domain::format_utc)
      .time(c.ringing_at, domain::format_utc)
      .time(c.ended_at, domain::format_utc)
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
    int64_t after = 0;
    stream_csv(ex, "calls-" + domain::encode_global_id(domain::entity::campaign, c->id) + ".csv",
               header_row, [&](std::string& rows) {
                 auto calls = storage::export_campaign_calls(ctx.db(), c->tenant_id, c->id, *f,
                                                             after, batch_calls);
                 for (const auto& call : calls)
                   append_call(rows, call);
                 if (!calls.empty())
                   after = calls.back().id;
                 return calls.size() == static_cast<std::size_t>(batch_calls);
               });
  }
};

} // namespace

std::shared_ptr<handler> export_campaign_calls() {
  return std::make_shared<export_campaign_calls_handler>();
}

} // namespace vcs::http::handlers
