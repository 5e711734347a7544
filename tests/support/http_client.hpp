#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vcs::test {

struct http_response {
  unsigned status = 0;
  std::string body;
  std::map<std::string, std::string> headers; // lower-case names
  std::string header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string{} : it->second;
  }
};

using header_list = std::vector<std::pair<std::string, std::string>>;

// A blocking HTTP/1.1 client on one keep-alive connection (reconnects when
// the server closed it).
class http_client {
public:
  http_client(std::string host, unsigned short port);
  ~http_client();

  http_response request(const std::string& method, const std::string& target,
                        const std::string& body = {}, const header_list& headers = {});
  http_response get(const std::string& target, const header_list& headers = {}) {
    return request("GET", target, {}, headers);
  }

  // Writes raw bytes on the connection (for partial or malformed requests).
  void send_raw(const std::string& bytes);
  // Reads one response from the connection.
  http_response read_response();
  // True when the server has closed the connection (reads EOF).
  bool closed_by_peer();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// `Authorization: Bearer <token>` plus a JSON content type.
header_list bearer(const std::string& token);

} // namespace vcs::test
