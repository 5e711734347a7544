#include "domain/client_campaign_changes.hpp"

#include "domain/global_id.hpp"

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace vcs::domain {

namespace {

// Whether `id` is among the client's ids of any of `kinds`; pool ids match
// in either of their forms (global or plain).
bool assigned(const client_resources& r, std::initializer_list<std::string_view> kinds,
              const std::string& id) {
  const auto pool = parse_id(entity::phone_number_pool, id);
  for (const auto& [kind, ids] : r.assigned)
    if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end())
      for (const auto& given : ids)
        if (given == id || (kind == "phone_number_pool" && pool &&
                            parse_id(entity::phone_number_pool, given) == pool))
          return true;
  return false;
}

} // namespace

// Whether `given` is set and differs from what the campaign has.
template <class T> bool changes(const std::optional<T>& given, const std::optional<T>& now) {
  return given && given != now;
}

std::optional<error> check_client_campaign_changes(const campaign_fields& changes_to,
                                                   const campaign& now, const client_resources& r) {
  field_errors errors;
  constexpr const char* unassigned = "Not one of the resources assigned to your account.";
  const auto& c = changes_to;
  if (changes(c.webhook_url, now.webhook_url))
    errors.add("webhook_url", "Only the tenant sets where a campaign's results are sent.");
  // Which law's rules its calls are held to is the tenant's statement.
  if (c.calling_purpose && *c.calling_purpose != to_string(now.purpose))
    errors.add("calling_purpose", "Only the tenant says what a campaign's calls are.");
  if (changes(c.voice_provider_id, now.voice_provider_id) &&
      std::find(r.voice_provider_ids.begin(), r.voice_provider_ids.end(), *c.voice_provider_id) ==
          r.voice_provider_ids.end())
    errors.add("tenant_voice_provider_id", unassigned);
  if (changes(c.assistant_id, now.assistant_id) && !c.assistant_id->empty() &&
      !assigned(r, {"assistant", "provider_a_workflow", "provider_a_squad"}, *c.assistant_id))
    errors.add("assistant_id", unassigned);
  if (changes(c.phone_number_id, now.phone_number_id) && !c.phone_number_id->empty() &&
      !assigned(r, {"phone_number"}, *c.phone_number_id))
    errors.add("phone_number_id", unassigned);
  if (changes(c.phone_number_pool_id, now.phone_number_pool_id) &&
      !c.phone_number_pool_id->empty() &&
      !assigned(r, {"phone_number_pool"}, *c.phone_number_pool_id))
    errors.add("phone_number_pool_id", unassigned);
  if (errors.empty())
    return std::nullopt;
  return error{errc::forbidden, "A client user may change only its campaign's own settings and "
                                "name only resources assigned to it"}
      .with_field_errors(std::move(errors));
}

} // namespace vcs::domain
