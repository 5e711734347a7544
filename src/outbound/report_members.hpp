#pragma once

// Reading the members of a provider's JSON (its call reports, replies and lists)
// without trusting their types.

#include <rapidjson/document.h>

#include <initializer_list>
#include <optional>
#include <string>

namespace vcs::outbound {

// `name` of `v` when `v` is an object and it is a string.
std::optional<std::string> string_member(const rapidjson::Value& v, const char* name);

// `name` of the first of `objects` (null ones skipped) that has it as a string.
std::optional<std::string> first_string(std::initializer_list<const rapidjson::Value*> objects,
                                        const char* name);

// `name` of `v` when `v` is an object and it is an object; else null.
const rapidjson::Value* object_member(const rapidjson::Value& v, const char* name);

// `name` of `v` when `v` is an object and it is an array; else null.
const rapidjson::Value* array_member(const rapidjson::Value& v, const char* name);

// Whether `name` of `v` is `true` (an object whose member is that boolean).
bool true_member(const rapidjson::Value& v, const char* name);

// `name` of `v` when `v` is an object and it is a number.
std::optional<double> number_member(const rapidjson::Value& v, const char* name);

} // namespace vcs::outbound
