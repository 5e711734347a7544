#include "domain/web_widget.hpp"

#include <algorithm>
#include <array>

namespace vcs::domain {

namespace {

template <std::size_t N>
bool one_of(const std::string& v, const std::array<std::string_view, N>& allowed) {
  return std::find(allowed.begin(), allowed.end(), v) != allowed.end();
}

template <std::size_t N>
void choose(const std::optional<std::string>& given, std::string& target, const char* key,
            const std::array<std::string_view, N>& allowed, field_errors& errors) {
  if (!given)
    return;
  if (one_of(*given, allowed))
    target = *given;
  else
    errors.add(std::string{"config."} + key, "Must be one of " + join(allowed) + ".");
}

void text(const std::optional<std::string>& given, std::string& target, const char* key,
          std::size_t max_length, field_errors& errors) {
  if (!given)
    return;
  if (given->find_first_not_of(" \t\r\n") == std::string::npos)
    errors.add(std::string{"config."} + key, "This field may not be blank.");
  else if (given->size() > max_length)
    errors.add(std::string{"config."} + key,
               "Ensure this field has no more than " + std::to_string(max_length) + " characters.");
  else
    target = *given;
}

void colour(const std::optional<std::string>& given, std::string& target, const char* key,
            field_errors& errors) {
  if (!given)
    return;
  if (is_hex_colour(*given))
    target = *given;
  else
    errors.add(std::string{"config."} + key, "Enter a hex colour such as #2563EB.");
}

} // namespace

bool widget_config::has_mode(std::string_view m) const {
  return std::find(mode.begin(), mode.end(), m) != mode.end();
}

bool is_hex_colour(std::string_view text) noexcept {
  if ((text.size() != 4 && text.size() != 7) || text[0] != '#')
    return false;
  return std::all_of(text.begin() + 1, text.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

widget_config resolve_widget_config(const widget_config_input& in, field_errors& errors) {
  widget_config c;
  static constexpr std::array<std::string_view, 2> modes{"voice", "chat"};
  static constexpr std::array<std::string_view, 3> themes{"light", "dark", "auto"};
  static constexpr std::array<std::string_view, 4> positions{"bottom-right", "bottom-left",
                                                             "top-right", "top-left"};
  if (in.mode) {
    bool ok = !in.mode->empty();
    for (std::size_t i = 0; ok && i < in.mode->size(); ++i) {
      const auto& m = (*in.mode)[i];
      ok = one_of(m, modes) &&
           std::find(in.mode->begin(), in.mode->begin() + i, m) == in.mode->begin() + i;
    }
    if (ok)
      c.mode = *in.mode;
    else
      errors.add("config.mode", "Must be a non-empty list of voice and/or chat, without repeats.");
  }
  choose(in.theme, c.theme, "theme", themes, errors);
  choose(in.position, c.position, "position", positions, errors);
  text(in.title, c.title, "title", 60, errors);
  text(in.subtitle, c.subtitle, "subtitle", 120, errors);
  text(in.cta_button_text, c.cta_button_text, "ctaButtonText", 40, errors);
  colour(in.accent_color, c.accent_color, "accentColor", errors);
  colour(in.cta_button_color, c.cta_button_color, "ctaButtonColor", errors);
  return c;
}

} // namespace vcs::domain
