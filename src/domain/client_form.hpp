#pragma once

#include "domain/timestamp.hpp"

#include <cstdint>
#include <string>

namespace vcs::domain {

struct client_form {
  int64_t id = 0;
  int64_t tenant_id = 0;
  std::string title;
  timestamp created_at{};
};

struct form_submission {
  int64_t id = 0;
  int64_t form_id = 0;
  int64_t client_id = 0;
  std::string response_data_json = "{}";
  bool is_test = false;
  timestamp created_at{};
  timestamp updated_at{};
};

} // namespace vcs::domain
