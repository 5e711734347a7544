#pragma once

// How a vendor's callbacks reach the service and prove where they come
// from: one descriptor per vendor, in its gateway's file, and one handler
// and one route per descriptor in the inbound server.

#include "domain/provider_signature.hpp"
#include "outbound/provider_report.hpp"

#include <array>
#include <optional>
#include <string_view>

namespace vcs::outbound {

struct provider_callback {
  // The configuration kind whose callbacks these are.
  std::string_view kind;
  // The POST route's pattern; it names {voice_provider_id} and, where the
  // vendor calls back a URL we gave it, {secret}.
  std::string_view route;
  // Whether {voice_provider_id} is the configuration's global id (the id a
  // tenant copies into the vendor's console) rather than its number.
  bool global_id = false;
  // The request header holding the proof; empty: the path's {secret}.
  std::string_view proof_header;
  // The vendor's signature scheme and the configuration's credential that
  // keys it; null: the proof is the secret the service derived for the
  // configuration (outbound/callback_secret.hpp), which it gave the vendor
  // with each call.
  const domain::signature_scheme* scheme = nullptr;
  const char* signing_credential = nullptr;
  // Reads a body; nullopt for one that changes no call.
  std::optional<provider_report> (*read)(std::string_view body) = nullptr;
};

// Every vendor's, in kind order.
const std::array<const provider_callback*, 4>& provider_callbacks();

} // namespace vcs::outbound
