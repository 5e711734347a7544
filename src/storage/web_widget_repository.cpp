#include "storage/web_widget_repository.hpp"

#include "storage/nullable.hpp"

#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr const char* insert_sql =
    "INSERT INTO web_widgets (tenant_id, campaign_id, config, voice_assistant_id, "
    "chat_assistant_id) VALUES (:t, :c, :cfg::jsonb, :va, :ca) RETURNING id, created_at";

} // namespace

domain::web_widget insert_web_widget(soci::session& sql, int64_t tenant_id,
                                     const domain::web_widget& widget,
                                     const std::string& config_json) {
  domain::web_widget out = widget;
  nullable_text voice{widget.voice_assistant_id}, chat{widget.chat_assistant_id};
  std::string created;
  sql << insert_sql, soci::use(tenant_id), soci::use(widget.campaign_id), soci::use(config_json),
      soci::use(voice.value, voice.ind), soci::use(chat.value, chat.ind), soci::into(out.id),
      soci::into(created);
  out.created_at = timestamp_column(created);
  return out;
}

} // namespace vcs::storage
