#include "http/work/router.hpp"

#include <cassert>

namespace vcs::http {

const std::string& path_params::get(std::string_view name) const {
  for (const auto& e : entries_)
    if (e.name == name)
      return e.value;
  assert(!"no such placeholder in the route's pattern");
  static const std::string none;
  return none;
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  if (!path.empty() && path.front() == '/')
    path.remove_prefix(1);
  while (true) {
    auto slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos)
      break;
    path.remove_prefix(slash + 1);
  }
  return parts;
}

void router::add(route r) {
  compiled c;
  for (auto seg : split_path(r.pattern)) {
    bool placeholder = seg.size() >= 2 && seg.front() == '{' && seg.back() == '}';
    if (placeholder)
      seg = seg.substr(1, seg.size() - 2);
    c.segments.push_back({std::string{seg}, placeholder});
  }
  c.r = r;
  compiled_.push_back(std::move(c));
  routes_.push_back(std::move(r));
}

bool router::matches(const compiled& c, const std::vector<std::string_view>& parts,
                     path_params* params) {
  if (c.segments.size() != parts.size())
    return false;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (c.segments[i].placeholder) {
      // A placeholder takes any non-empty segment.
      if (parts[i].empty())
        return false;
      if (params)
        params->add(c.segments[i].text, parts[i]);
    } else if (c.segments[i].text != parts[i]) {
      return false;
    }
  }
  return true;
}

router::match router::find(std::string_view method, std::string_view path) const {
  auto parts = split_path(path);
  match m;
  for (const auto& c : compiled_) {
    if (!matches(c, parts, nullptr))
      continue;
    if (c.r.method == method) {
      m.result = outcome::matched;
      m.found = &c.r;
      m.params.clear();
      matches(c, parts, &m.params);
      return m;
    }
    m.result = outcome::wrong_method;
    if (!m.allow.empty())
      m.allow += ", ";
    m.allow += c.r.method;
    if (m.wrong_method_message.empty() || c.r.wrong_method_message != "Method not allowed")
      m.wrong_method_message = c.r.wrong_method_message;
  }
  return m;
}

} // namespace vcs::http
