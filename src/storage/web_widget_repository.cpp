#include "storage/web_widget_repository.hpp"

#include "storage/prepared.hpp"

namespace vcs::storage {

namespace {

constexpr prepared_statement insert_stmt{
    "vcs_insert_web_widget",
    "INSERT INTO web_widgets (tenant_id, campaign_id, config, voice_assistant_id, "
    "chat_assistant_id) VALUES ($1, $2, $3::jsonb, $4, $5) ON CONFLICT DO NOTHING "
    "RETURNING id, created_at"};

} // namespace

std::optional<domain::web_widget> insert_web_widget(soci::session& sql, int64_t tenant_id,
                                                    const domain::web_widget& widget,
                                                    const std::string& config_json) {
  domain::web_widget out = widget;
  auto rows = execute(sql, insert_stmt,
                      {tenant_id, widget.campaign_id, config_json, widget.voice_assistant_id,
                       widget.chat_assistant_id});
  if (rows.size() == 0)
    return std::nullopt;
  out.id = rows.int64(0, 0);
  out.created_at = rows.timestamp(0, 1);
  return out;
}

} // namespace vcs::storage
