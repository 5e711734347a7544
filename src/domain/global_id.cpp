#include "domain/global_id.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>

namespace vcs::domain {
namespace {

constexpr std::string_view base64_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Longest valid payload is "TenantVoiceProvider:" plus 19 digits (39 bytes);
// anything that decodes to more cannot be a global ID, so decoding needs no
// allocation.
using payload_buffer = std::array<char, 48>;

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    uint32_t group = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      const auto byte = k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u;
      group = (group << 8) | byte;
    }
    for (std::size_t k = 0; k < 4; ++k)
      out += k <= n ? base64_alphabet[(group >> (18 - 6 * k)) & 0x3F] : '=';
  }
  return out;
}

// Sextet value per byte, -1 for anything outside the standard alphabet
// (including '=', whitespace and the url-safe '-' and '_').
constexpr std::array<int8_t, 256> sextet_table = [] {
  std::array<int8_t, 256> table{};
  table.fill(-1);
  for (std::size_t i = 0; i < base64_alphabet.size(); ++i)
    table[static_cast<unsigned char>(base64_alphabet[i])] = static_cast<int8_t>(i);
  return table;
}();

int sextet(char c) noexcept {
  return sextet_table[static_cast<unsigned char>(c)];
}

// Decodes one group of four characters into `out`, returning the number of
// bytes written or -1. Padding is only allowed in the final group, and the
// bits it hides must be zero: this is what makes decoding canonical.
int decode_group(std::string_view quad, bool last, char* out) noexcept {
  const int pad = last ? (quad[3] == '=') + (quad[3] == '=' && quad[2] == '=') : 0;
  uint32_t group = 0;
  for (int k = 0; k < 4 - pad; ++k) {
    const int v = sextet(quad[k]);
    if (v < 0)
      return -1;
    group = (group << 6) | static_cast<uint32_t>(v);
  }
  group <<= 6 * pad;
  const uint32_t unused_mask = pad == 2 ? 0xFFFF : pad == 1 ? 0xFF : 0;
  if ((group & unused_mask) != 0)
    return -1;
  const int n = 3 - pad;
  for (int k = 0; k < n; ++k)
    out[k] = static_cast<char>((group >> (16 - 8 * k)) & 0xFF);
  return n;
}

std::optional<std::string_view> base64_decode(std::string_view text, payload_buffer& buf) noexcept {
  if (text.size() % 4 != 0 || text.size() / 4 * 3 > buf.size())
    return std::nullopt;
  std::size_t len = 0;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const int n = decode_group(text.substr(i, 4), i + 4 == text.size(), buf.data() + len);
    if (n < 0)
      return std::nullopt;
    len += static_cast<std::size_t>(n);
  }
  return std::string_view{buf.data(), len};
}

} // namespace

std::string_view type_name(entity kind) noexcept {
  switch (kind) {
  case entity::tenant:
    return "Tenant";
  case entity::api_key:
    return "ApiKey";
  case entity::campaign:
    return "VoiceCampaign";
  case entity::lead:
    return "CampaignLead";
  case entity::client:
    return "Client";
  case entity::client_user:
    return "ClientUser";
  case entity::account_configuration:
    return "AssetGroup";
  case entity::web_widget:
    return "WebWidget";
  case entity::voice_provider:
    return "TenantVoiceProvider";
  case entity::client_form:
    return "ClientForm";
  case entity::form_submission:
    return "FormSubmission";
  case entity::phone_number_pool:
    return "PhoneNumberPool";
  case entity::lead_import:
    return "LeadImport";
  case entity::member:
    return "Member";
  }
  return {};
}

std::string encode_global_id(entity kind, int64_t id) {
  assert(id > 0);
  std::string payload{type_name(kind)};
  payload += ':';
  payload += std::to_string(id);
  return base64_encode(payload);
}

std::optional<int64_t> decode_global_id(entity kind, std::string_view text) noexcept {
  payload_buffer buf;
  const auto payload = base64_decode(text, buf);
  if (!payload)
    return std::nullopt;
  const auto name = type_name(kind);
  if (payload->size() <= name.size() || !payload->starts_with(name) ||
      (*payload)[name.size()] != ':')
    return std::nullopt;
  return parse_positive_int(payload->substr(name.size() + 1));
}

std::optional<int64_t> parse_id(entity kind, std::string_view text) noexcept {
  if (auto id = parse_positive_int(text))
    return id;
  return decode_global_id(kind, text);
}

std::optional<int64_t> parse_positive_int(std::string_view text) noexcept {
  if (text.empty() || text.front() == '0')
    return std::nullopt;
  constexpr int64_t max = std::numeric_limits<int64_t>::max();
  int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    const int digit = c - '0';
    if (value > (max - digit) / 10)
      return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

} // namespace vcs::domain
