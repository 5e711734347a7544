#pragma once

#include "domain/timestamp.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace vcs::domain {

struct client_user {
  int64_t id = 0;
  std::string email;
};

// A tenant's sub-account.
struct client {
  int64_t id = 0;
  std::string name;
  std::string primary_email;
  timestamp created_at{};
  std::vector<client_user> users;
};

} // namespace vcs::domain
