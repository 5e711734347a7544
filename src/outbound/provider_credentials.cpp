#include "outbound/provider_credentials.hpp"

#include "domain/sealed_bindings.hpp"

#include <rapidjson/document.h>

namespace vcs::outbound {

std::optional<std::map<std::string, std::string>>
open_credentials(const domain::secret_box& secrets, const domain::secret_box::sealed& credentials,
                 int64_t tenant_id) {
  auto plain = secrets.open(credentials, domain::voice_provider_binding(tenant_id));
  if (!plain)
    return std::nullopt;
  rapidjson::Document doc;
  if (doc.Parse(plain->data(), plain->size()).HasParseError() || !doc.IsObject())
    return std::nullopt;
  std::map<std::string, std::string> out;
  for (const auto& m : doc.GetObject())
    if (m.value.IsString())
      out.emplace(std::string{m.name.GetString(), m.name.GetStringLength()},
                  std::string{m.value.GetString(), m.value.GetStringLength()});
  return out;
}

std::optional<std::string> open_credential(const domain::secret_box& secrets,
                                           const domain::secret_box::sealed& credentials,
                                           int64_t tenant_id, const char* field) {
  auto all = open_credentials(secrets, credentials, tenant_id);
  if (!all)
    return std::nullopt;
  auto found = all->find(field);
  if (found == all->end() || found->second.empty())
    return std::nullopt;
  return found->second;
}

} // namespace vcs::outbound
