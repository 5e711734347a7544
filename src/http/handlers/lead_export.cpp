// GET /api/v2/voice-campaigns/{campaign_id}/leads/export: a campaign's leads
// as text/csv, in the order they were added, at any size (csv_download.hpp).

#include "domain/global_id.hpp"
#include "http/handlers/csv_download.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lookup.hpp"
#include "http/render/csv_row.hpp"
#include "storage/lead_repository.hpp"

namespace vcs::http::handlers {

namespace {

// Leads read per statement.
constexpr int32_t batch_leads = 500;

constexpr std::string_view header_row =
    "id,phone_number,first_name,last_name,email,source,custom_fields,call_status,"
    "call_error_reason,answered,answer_type,attempts_made,do_not_call,invalid,invalid_reason,"
    "priority,next_attempt_after,answered_at,created_at,updated_at\r\n";

const char* flag(bool b) {
  return b ? "true" : "false";
}

// One lead as the list renders it; custom_fields as its JSON text.
void append_lead(std::string& out, const domain::lead& l) {
  csv_row{out}
      .value(domain::encode_global_id(domain::entity::lead, l.id))
      .value(l.phone_number)
      .text(l.first_name)
      .text(l.last_name)
      .text(l.email)
      .value(l.source)
      .text(l.custom_fields_json)
      .value(l.call_status)
      .value(l.call_error_reason)
      .value(flag(l.answered))
      .value(l.answer_type)
      .value(l.attempts_made)
      .value(flag(l.do_not_call))
      .value(flag(l.invalid))
      .text(l.invalid_reason)
      .value(l.priority)
      .time(l.next_attempt_after, domain::format_offset)
      .time(l.answered_at, domain::format_offset)
      .time(l.created_at, domain::format_offset)
      .time(l.updated_at, domain::format_offset)
      .end();
}

class export_leads_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto c = path_campaign(ex, ctx);
    if (!c)
      return ex->fail(c.err());
    int64_t after = -1;
    stream_csv(ex, "leads-" + domain::encode_global_id(domain::entity::campaign, c->id) + ".csv",
               header_row, [&](std::string& rows) {
                 auto batch =
                     storage::export_leads(ctx.db(), c->tenant_id, c->id, after, batch_leads);
                 for (const auto& lead : batch.leads)
                   append_lead(rows, lead);
                 after = batch.last_position;
                 return batch.leads.size() == static_cast<std::size_t>(batch_leads);
               });
  }
};

} // namespace

std::shared_ptr<handler> export_leads() {
  return std::make_shared<export_leads_handler>();
}

} // namespace vcs::http::handlers
