#pragma once

// Boost 1.74 Asio under C++20 needs <utility> before its headers
// (awaitable.hpp uses std::exchange). Include Beast only through this file.
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace vcs::outbound {

namespace beast = boost::beast;
namespace net = boost::asio;
namespace bhttp = boost::beast::http;
using tcp = boost::asio::ip::tcp;

} // namespace vcs::outbound
