#include "domain/campaign_errors.hpp"
#include "domain/global_id.hpp"
#include "domain/permission.hpp"
#include "domain/web_widget.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/readers.hpp"
#include "storage/campaign_repository.hpp"

#include <set>

namespace vcs::http::handlers {

namespace {

const std::set<std::string_view> config_keys{"mode",        "theme",         "position",
                                             "title",       "subtitle",      "ctaButtonText",
                                             "accentColor", "ctaButtonColor"};

void write_config(json_out& out, const domain::widget_config& c) {
  out.w().StartObject();
  out.key("mode");
  out.w().StartArray();
  for (const auto& m : c.mode)
    out.str(m);
  out.w().EndArray();
  out.field("theme", c.theme);
  out.field("position", c.position);
  out.field("title", c.title);
  out.field("subtitle", c.subtitle);
  out.field("ctaButtonText", c.cta_button_text);
  out.field("accentColor", c.accent_color);
  out.field("ctaButtonColor", c.cta_button_color);
  out.w().EndObject();
}

// The config object's keys, type-checked; unknown keys are reported (a typo
// would otherwise silently fall back to a default).
domain::widget_config_input read_config(const rapidjson::Value& config,
                                        domain::field_errors& errors) {
  domain::widget_config_input in;
  for (const auto& m : config.GetObject()) {
    std::string_view key{m.name.GetString(), m.name.GetStringLength()};
    if (!config_keys.count(key))
      errors.add("config." + std::string{key}, "Unknown key.");
  }
  object_reader r{config, errors};
  auto text = [&](const char* key) { return r.string(key, false, 1024); };
  if (auto it = config.FindMember("mode"); it != config.MemberEnd() && !it->value.IsNull()) {
    std::vector<std::string> modes;
    bool strings = it->value.IsArray();
    if (strings)
      for (const auto& v : it->value.GetArray()) {
        strings = strings && v.IsString();
        if (v.IsString())
          modes.emplace_back(v.GetString(), v.GetStringLength());
      }
    if (strings)
      in.mode = std::move(modes);
    else
      errors.add("config.mode", "Must be a list of strings.");
  }
  in.theme = text("theme");
  in.position = text("position");
  in.title = text("title");
  in.subtitle = text("subtitle");
  in.cta_button_text = text("ctaButtonText");
  in.accent_color = text("accentColor");
  in.cta_button_color = text("ctaButtonColor");
  return in;
}

} // namespace

widget_request read_widget_request(const rapidjson::Value& body, domain::field_errors& errors) {
  widget_request out;
  object_reader in{body, errors};
  out.campaign_ref = in.string("voice_campaign_id", true, 128);
  out.voice_assistant_id = in.string("voice_assistant_id", false, 255);
  out.chat_assistant_id = in.string("chat_assistant_id", false, 255);
  auto cfg = body.FindMember("config");
  if (cfg == body.MemberEnd() || cfg->value.IsNull())
    errors.add("config", "This field is required.");
  else if (!cfg->value.IsObject())
    errors.add("config", "Must be an object.");
  else
    out.config = domain::resolve_widget_config(read_config(cfg->value, errors), errors);
  if (out.config.has_mode("voice") && !out.voice_assistant_id)
    errors.add("voice_assistant_id", "Required when config.mode includes voice.");
  if (out.config.has_mode("chat") && !out.chat_assistant_id)
    errors.add("chat_assistant_id", "Required when config.mode includes chat.");
  return out;
}

namespace {

// POST /api/v2/web-widgets: one widget per INBOUND campaign, through the
// campaign's actor; the unique constraint settles concurrent creates.
class create_web_widget_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto [campaign_ref, voice, chat, config] = read_widget_request(*body, errors);
    if (!errors.empty())
      return ex->fail(domain::invalid_data(std::move(errors)));

    std::optional<domain::campaign> campaign;
    if (auto id = domain::parse_id(domain::entity::campaign, *campaign_ref)) {
      if (!ex->principal->scope.reaches_campaign(*id))
        return ex->fail(domain::campaign_out_of_scope());
      campaign = storage::find_campaign(ctx.db(), ex->principal->tenant_id, *id);
    }
    if (!campaign)
      return ex->fail(domain::not_found("Voice campaign not found or does not belong to this "
                                        "tenant"));
    if (campaign->type != "INBOUND") {
      domain::field_errors type_error;
      type_error.add("voice_campaign_id", "Web widgets are for INBOUND campaigns; this campaign "
                                          "is " +
                                              campaign->type + ".");
      return ex->fail(domain::invalid_data(std::move(type_error)));
    }
    actors::widget_create req;
    req.widget.campaign_id = campaign->id;
    req.widget.config = config;
    req.widget.voice_assistant_id = voice;
    req.widget.chat_assistant_id = chat;
    json_out cfg_json;
    write_config(cfg_json, config);
    req.config_json = cfg_json.take();
    ask_campaign<domain::web_widget>(
        ctx.self, ex, campaign->tenant_id, campaign->id,
        [ex](domain::web_widget& w) {
          json_out out;
          out.w().StartObject();
          out.field("status", "success");
          out.field("message", "Web widget created successfully");
          out.key("data");
          out.w().StartObject();
          out.field("web_widget_id", domain::encode_global_id(domain::entity::web_widget, w.id));
          out.field("voice_campaign_id",
                    domain::encode_global_id(domain::entity::campaign, w.campaign_id));
          out.key("config");
          write_config(out, w.config);
          out.field("created_at", domain::format_utc(w.created_at));
          out.w().EndObject();
          out.w().EndObject();
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::create_atom::value, std::move(req)));
  }
};

} // namespace

std::shared_ptr<handler> create_web_widget() {
  return std::make_shared<create_web_widget_handler>();
}

} // namespace vcs::http::handlers
