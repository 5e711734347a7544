#pragma once

#include "domain/error.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// Outcome of checking a phone number given as E.164 text.
struct phone_check {
  // "+" followed by 2..15 digits, the first digit 1-9, nothing else (no
  // spaces, dashes or parentheses). A number that is not well-formed is
  // rejected outright.
  bool well_formed = false;
  // libphonenumber's IsValidNumber for the parsed number. A well-formed but
  // invalid number is stored and flagged (dialers need to see it).
  bool valid = false;
  // Why it is invalid, e.g. "Unknown country calling code" or "Not a valid
  // number for region GB"; empty when valid.
  std::string invalid_reason;
  // ISO 3166 region of the number ("US", "GB"), empty when unknown.
  std::string region;
};

phone_check check_phone(std::string_view text);

// A pragmatic e-mail check: one "@", a non-empty local part of at most 64
// characters without spaces or control characters, a domain with at least
// one dot, labels of letters, digits and '-' (not at a label's edge), a
// top-level label of at least 2 letters; at most 254 characters in total.
bool is_email(std::string_view text) noexcept;

// Bounds of lead input (docs/decisions/leads.md#leads).
inline constexpr std::size_t lead_name_max_length = 255;
inline constexpr std::size_t lead_email_max_length = 254;
inline constexpr std::size_t custom_fields_max_bytes = 16 * 1024;
// Most items one bulk request may carry (add, update, remove).
inline constexpr std::size_t bulk_max_items = 100'000;
inline constexpr std::size_t bulk_update_max_items = 1'000;
// Bounds of a bulk body checked while it is read, before it is parsed: one
// item's bytes as sent (custom_fields' 16 KiB with room for escapes and
// spacing, and the other fields), and the JSON values of the whole body
// (about 40 a lead at the item cap), so that no body can make the parser
// build more than about 100 MB, whatever its shape.
inline constexpr std::size_t bulk_item_max_bytes = 64 * 1024;
inline constexpr std::size_t bulk_max_values = 4'000'000;
// Items per transaction of a bulk removal (actors/lead_removal_run.hpp).
inline constexpr std::size_t lead_removal_chunk_items = 1'000;

// Leads per block of positions: list pages locate an offset by summing
// per-block live counts, so a deep page costs at most (offset / block
// size) small rows plus one block's skip.
inline constexpr int64_t lead_block_size = 1024;

} // namespace vcs::domain
