#pragma once

#include "domain/lead_record.hpp"

#include <initializer_list>
#include <string>
#include <vector>

namespace vcs::test {

// Validated leads with these phone numbers and no other field, for tests
// that insert leads straight through the repository.
inline std::vector<domain::lead_input> leads_with(std::initializer_list<std::string> phones) {
  std::vector<domain::lead_input> out(phones.size());
  auto it = out.begin();
  for (const auto& p : phones)
    (it++)->phone_number = p;
  return out;
}

} // namespace vcs::test
