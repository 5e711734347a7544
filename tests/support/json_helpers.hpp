#pragma once

#include <rapidjson/document.h>

#include <string>

namespace vcs::test {

// Parses a response body; a test failure (exception) when it is not JSON.
rapidjson::Document parse(const std::string& body);

// The string member `name` of a JSON object body ("" when absent).
std::string str(const rapidjson::Value& v, const char* name);

} // namespace vcs::test
