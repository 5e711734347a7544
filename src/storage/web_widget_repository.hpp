#pragma once

#include "domain/web_widget.hpp"

#include <string>

namespace soci {
class session;
}

namespace vcs::storage {

// Stores the campaign's widget; `config_json` is the resolved config
// object. A second widget for the campaign violates its unique constraint
// (the caller maps that to the spec's conflict).
domain::web_widget insert_web_widget(soci::session& sql, int64_t tenant_id,
                                     const domain::web_widget& widget,
                                     const std::string& config_json);

} // namespace vcs::storage
