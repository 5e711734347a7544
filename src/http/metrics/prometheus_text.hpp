#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace vcs::http {

// A metric family's # HELP and # TYPE lines in Prometheus text format.
inline void prometheus_family(std::string& out, std::string_view name, std::string_view type,
                              std::string_view help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

// A family of one unlabelled series: its # HELP and # TYPE lines and value.
template <class T>
void prometheus_single(std::string& out, std::string_view name, std::string_view type,
                       std::string_view help, T value) {
  prometheus_family(out, name, type, help);
  out += fmt::format("{} {}\n", name, value);
}

} // namespace vcs::http
