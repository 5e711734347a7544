#include "json_helpers.hpp"

#include <stdexcept>

namespace vcs::test {

rapidjson::Document parse(const std::string& body) {
  rapidjson::Document d;
  d.Parse(body.c_str(), body.size());
  if (d.HasParseError())
    throw std::runtime_error("response is not JSON: " + body);
  return d;
}

std::string str(const rapidjson::Value& v, const char* name) {
  auto it = v.FindMember(name);
  if (it == v.MemberEnd() || !it->value.IsString())
    return {};
  return it->value.GetString();
}

} // namespace vcs::test
