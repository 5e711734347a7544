#pragma once

// Beast and Asio for the inbound server, through the one header that
// includes them (outbound/beast.hpp says why).
#include "outbound/beast.hpp"

namespace vcs::http {

namespace beast = outbound::beast;
namespace net = outbound::net;
namespace bhttp = outbound::bhttp;
using outbound::tcp;

} // namespace vcs::http
