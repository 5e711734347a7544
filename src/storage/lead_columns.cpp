#include "storage/lead_columns.hpp"

#include "storage/pg_array.hpp"

#include <optional>
#include <stdexcept>
#include <string_view>

namespace vcs::storage {

lead_columns columns_of(std::span<const domain::lead_input> leads,
                        std::span<const int32_t> row_index) {
  if (!row_index.empty() && row_index.size() != leads.size())
    throw std::invalid_argument("one row index per lead, or none");
  const auto n = leads.size();
  pg_array phone{pg_element::text, n}, first{pg_element::text, n}, last{pg_element::text, n},
      email{pg_element::text, n}, custom{pg_element::text, n}, invalid{pg_element::boolean, n},
      reason{pg_element::text, n};
  for (const auto& lead : leads) {
    phone.add_text(std::string_view{lead.phone_number});
    first.add_text(lead.first_name);
    last.add_text(lead.last_name);
    email.add_text(lead.email);
    custom.add_text(std::string_view{lead.custom_fields_json});
    invalid.add_bool(lead.invalid);
    reason.add_text(lead.invalid_reason);
  }
  auto index = [&] {
    if (row_index.empty())
      return pg_param{std::nullopt};
    pg_array a{pg_element::int4, n};
    for (auto i : row_index)
      a.add_int4(i);
    return std::move(a).finish();
  }();
  return {std::move(phone).finish(),  std::move(first).finish(),
          std::move(last).finish(),   std::move(email).finish(),
          std::move(custom).finish(), std::move(invalid).finish(),
          std::move(reason).finish(), std::move(index)};
}

} // namespace vcs::storage
