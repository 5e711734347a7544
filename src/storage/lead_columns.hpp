#pragma once

#include "domain/lead_record.hpp"
#include "storage/pg_param.hpp"

#include <cstdint>
#include <span>

namespace vcs::storage {

// Validated leads as the statements that insert or store them take them:
// one binary array per column, in row order. `row_index` is each row's
// item index in its bulk add's request, or null for a single add.
struct lead_columns {
  pg_param phone_number;
  pg_param first_name;
  pg_param last_name;
  pg_param email;
  pg_param custom_fields;
  pg_param invalid;
  pg_param invalid_reason;
  pg_param row_index;
};

// `row_index` is empty, or holds one index per lead.
lead_columns columns_of(std::span<const domain::lead_input> leads,
                        std::span<const int32_t> row_index);

} // namespace vcs::storage
