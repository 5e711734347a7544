#include "http/server/proxy_protocol.hpp"

#include <algorithm>

namespace vcs::http {

namespace {

constexpr std::string_view signature{"\r\n\r\n\0\r\nQUIT\n", 12};
constexpr std::size_t fixed_part = 16; // signature, version and command, family, length

unsigned char byte_at(std::string_view bytes, std::size_t i) {
  return static_cast<unsigned char>(bytes[i]);
}

} // namespace

proxy_header parse_proxy_header(std::string_view bytes) {
  using outcome = proxy_header::outcome;
  const auto compared = std::min(bytes.size(), signature.size());
  if (bytes.substr(0, compared) != signature.substr(0, compared))
    return {outcome::absent};
  if (bytes.size() < fixed_part)
    return {outcome::need_more};
  const auto version_command = byte_at(bytes, 12);
  const auto family = byte_at(bytes, 13);
  const std::size_t length = (std::size_t{byte_at(bytes, 14)} << 8) | byte_at(bytes, 15);
  const auto command = version_command & 0x0f;
  if ((version_command >> 4) != 2 || command > 1 || fixed_part + length > proxy_header_max_length)
    return {outcome::malformed};
  if (bytes.size() < fixed_part + length)
    return {outcome::need_more};
  proxy_header out{outcome::read, fixed_part + length};
  if (command == 0) // LOCAL: the proxy speaks for itself
    return out;
  const auto* addresses = reinterpret_cast<const unsigned char*>(bytes.data() + fixed_part);
  // TCP over IPv4: source, destination (4 bytes each), ports; over IPv6,
  // 16-byte addresses. Other families (UDP, unix sockets) name no client.
  if (family == 0x11) {
    if (length < 12)
      return {outcome::malformed};
    out.source = domain::ip_address_from_bytes(addresses, 4);
  } else if (family == 0x21) {
    if (length < 36)
      return {outcome::malformed};
    out.source = domain::ip_address_from_bytes(addresses, 16);
  }
  return out;
}

} // namespace vcs::http
