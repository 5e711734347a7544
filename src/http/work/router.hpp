#pragma once

#include "domain/client_access.hpp"
#include "domain/permission.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::http {

class handler;

// The values a matched path gave its route's {name} placeholders, read by
// name. Names are views of the router's patterns: valid while the router
// lives, as the route it matched.
class path_params {
public:
  struct entry {
    std::string_view name;
    std::string value;
  };

  void add(std::string_view name, std::string_view value) {
    entries_.push_back({name, std::string{value}});
  }
  void clear() noexcept { entries_.clear(); }
  // The value of {name}. Asking for a name the route's pattern lacks is a
  // programming error: asserted, and empty in a release build.
  const std::string& get(std::string_view name) const;
  std::vector<entry>::const_iterator begin() const noexcept { return entries_.begin(); }
  std::vector<entry>::const_iterator end() const noexcept { return entries_.end(); }

private:
  std::vector<entry> entries_;
};

// Method + path pattern -> handler. Patterns are literal segments and
// {name} placeholders; a trailing slash is significant (the billing routes
// are written with one). Pure: no I/O, unit-tested.
class router {
public:
  struct route {
    std::string method;
    std::string pattern;
    std::shared_ptr<handler> target;
    // What an API key needs to be let through (public routes taking one).
    std::optional<domain::permission> permission;
    // Message for a wrong method on this path; the v1 remove route has its
    // own wording in the spec.
    std::string wrong_method_message = "Method not allowed";
    // The least campaign access level a client user's portal session needs
    // (domain/client_access.hpp); nullopt: closed to client users.
    std::optional<domain::access_level> client_level;
  };

  enum class outcome { matched, not_found, wrong_method };

  struct match {
    outcome result = outcome::not_found;
    const route* found = nullptr;
    path_params params;
    // For wrong_method: the methods the path accepts and the message.
    std::string allow;
    std::string wrong_method_message;
  };

  void add(route r);
  match find(std::string_view method, std::string_view path) const;
  const std::vector<route>& routes() const noexcept { return routes_; }

private:
  struct segment {
    // The literal, or the placeholder's name without its braces.
    std::string text;
    bool placeholder = false;
  };
  struct compiled {
    route r;
    std::vector<segment> segments;
  };
  static bool matches(const compiled& c, const std::vector<std::string_view>& parts,
                      path_params* params);

  std::vector<compiled> compiled_;
  std::vector<route> routes_;
};

// Splits "/a/b/" into {"a", "b", ""}; the leading slash is dropped.
std::vector<std::string_view> split_path(std::string_view path);

} // namespace vcs::http
