#include "outbound/report_members.hpp"

namespace vcs::outbound {

std::optional<std::string> string_member(const rapidjson::Value& v, const char* name) {
  if (!v.IsObject())
    return std::nullopt;
  auto it = v.FindMember(name);
  if (it == v.MemberEnd() || !it->value.IsString())
    return std::nullopt;
  return std::string{it->value.GetString(), it->value.GetStringLength()};
}

std::optional<std::string> first_string(std::initializer_list<const rapidjson::Value*> objects,
                                        const char* name) {
  for (const auto* v : objects)
    if (v)
      if (auto s = string_member(*v, name))
        return s;
  return std::nullopt;
}

const rapidjson::Value* object_member(const rapidjson::Value& v, const char* name) {
  if (!v.IsObject())
    return nullptr;
  auto it = v.FindMember(name);
  return it != v.MemberEnd() && it->value.IsObject() ? &it->value : nullptr;
}

const rapidjson::Value* array_member(const rapidjson::Value& v, const char* name) {
  if (!v.IsObject())
    return nullptr;
  auto it = v.FindMember(name);
  return it != v.MemberEnd() && it->value.IsArray() ? &it->value : nullptr;
}

bool true_member(const rapidjson::Value& v, const char* name) {
  if (!v.IsObject())
    return false;
  auto it = v.FindMember(name);
  return it != v.MemberEnd() && it->value.IsBool() && it->value.GetBool();
}

std::optional<double> number_member(const rapidjson::Value& v, const char* name) {
  if (!v.IsObject())
    return std::nullopt;
  auto it = v.FindMember(name);
  if (it == v.MemberEnd() || !it->value.IsNumber())
    return std::nullopt;
  return it->value.GetDouble();
}

} // namespace vcs::outbound
