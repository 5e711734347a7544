#pragma once

#include "domain/web_widget.hpp"

#include <optional>
#include <string>

namespace soci {
class session;
}

namespace vcs::storage {

// Stores the campaign's widget; `config_json` is the resolved config
// object. Nothing when the campaign already has a widget.
std::optional<domain::web_widget> insert_web_widget(soci::session& sql, int64_t tenant_id,
                                                    const domain::web_widget& widget,
                                                    const std::string& config_json);

} // namespace vcs::storage
