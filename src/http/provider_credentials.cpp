#include "http/provider_credentials.hpp"

#include "domain/sealed_bindings.hpp"
#include "http/report_members.hpp"

#include <rapidjson/document.h>

namespace vcs::http {

std::optional<std::string> open_credential(const domain::secret_box& secrets,
                                           const domain::secret_box::sealed& credentials,
                                           int64_t tenant_id, const char* field) {
  auto plain = secrets.open(credentials, domain::voice_provider_binding(tenant_id));
  if (!plain)
    return std::nullopt;
  rapidjson::Document doc;
  if (doc.Parse(plain->data(), plain->size()).HasParseError())
    return std::nullopt;
  auto value = string_member(doc, field);
  if (value && value->empty())
    return std::nullopt;
  return value;
}

} // namespace vcs::http
