#pragma once

#include "domain/secret_box.hpp"
#include "domain/voice_provider.hpp"
#include "storage/page.hpp"

#include <functional>
#include <optional>
#include <string>

namespace soci {
class session;
}

namespace vcs::storage {

// A configuration as the tenant's reads show it: its credentials still
// sealed (the reader masks them) and how many campaigns that have not ended
// use it.
struct stored_voice_provider {
  domain::voice_provider_config config;
  domain::secret_box::sealed credentials;
  int64_t campaigns_in_use = 0;
};

// Stores a configuration with its credentials already sealed; nullopt when
// the tenant already holds max_voice_providers_per_tenant (counted under
// the tenant's row lock, so on every node at once).
std::optional<domain::voice_provider_config>
insert_voice_provider(soci::session& sql, int64_t tenant_id, domain::voice_provider_kind kind,
                      const domain::secret_box::sealed& credentials, int32_t concurrency_limit);

// Whether the tenant owns a configuration with this id; the row stays
// key-share locked until the transaction ends, so a deletion waits for the
// campaign or configuration being saved with it.
bool hold_voice_provider(soci::session& sql, int64_t tenant_id, int64_t id);

// Oldest first.
page_of<stored_voice_provider> list_voice_providers(soci::session& sql, int64_t tenant_id,
                                                    const page_request& page);

std::optional<stored_voice_provider> find_voice_provider(soci::session& sql, int64_t tenant_id,
                                                         int64_t id);

// The new credentials from the stored ones (the row locked meanwhile), or
// the error that refuses the change.
using credentials_rewrite = std::function<domain::result<domain::secret_box::sealed>(
    domain::voice_provider_kind, const domain::secret_box::sealed&)>;

// Rewrites the credentials and sets the limit (when given) in one
// transaction; the campaigns using the configuration look at it again.
// nullopt when the tenant has no such configuration.
std::optional<domain::result<stored_voice_provider>>
update_voice_provider(soci::session& sql, int64_t tenant_id, int64_t id,
                      const credentials_rewrite& rewrite, std::optional<int32_t> concurrency_limit);

enum class voice_provider_removal { removed, not_found, campaigns_use_it, calls_open };

// Deletes a configuration that no campaign that has not ended uses and no
// open call waits on; ended campaigns, past calls and client asset groups
// keep their rows and lose the reference.
voice_provider_removal delete_voice_provider(soci::session& sql, int64_t tenant_id, int64_t id);

} // namespace vcs::storage
