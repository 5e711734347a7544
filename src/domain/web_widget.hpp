#pragma once

#include "domain/error.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vcs::domain {

// A web widget's config with every key filled
// (docs/decisions/clients-and-billing.md#web-widgets lists the allowed values
// and defaults).
struct widget_config {
  std::vector<std::string> mode{"voice"};
  std::string theme = "light";
  std::string position = "bottom-right";
  std::string title = "Talk to us";
  std::string subtitle = "We usually answer right away";
  std::string cta_button_text = "Start a call";
  std::string accent_color = "#2563EB";
  std::string cta_button_color = "#2563EB";

  bool has_mode(std::string_view m) const;
};

// The config keys as sent; absent keys take the defaults above.
struct widget_config_input {
  std::optional<std::vector<std::string>> mode;
  std::optional<std::string> theme;
  std::optional<std::string> position;
  std::optional<std::string> title;
  std::optional<std::string> subtitle;
  std::optional<std::string> cta_button_text;
  std::optional<std::string> accent_color;
  std::optional<std::string> cta_button_color;
};

// Validates the given keys (problems under "config.<key>") and fills the
// absent ones with defaults. Rules: mode a non-empty list of "voice" and/or
// "chat" without duplicates; theme light, dark or auto; position
// bottom-right, bottom-left, top-right or top-left; title at most 60,
// subtitle 120, ctaButtonText 40 characters, none blank; colours "#RGB" or
// "#RRGGBB" hex.
widget_config resolve_widget_config(const widget_config_input& in, field_errors& errors);

bool is_hex_colour(std::string_view text) noexcept;

struct web_widget {
  int64_t id = 0;
  int64_t campaign_id = 0;
  widget_config config;
  std::optional<std::string> voice_assistant_id;
  std::optional<std::string> chat_assistant_id;
  timestamp created_at{};
};

} // namespace vcs::domain
