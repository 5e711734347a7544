#include "webhook_receiver.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace vcs::test {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

} // namespace

webhook_receiver::webhook_receiver() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0)
    throw std::runtime_error("socket failed");
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 64) != 0)
    throw std::runtime_error("bind/listen failed");
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { serve(); });
}

webhook_receiver::~webhook_receiver() {
  stop_ = true;
  thread_.join();
  ::close(listen_fd_);
}

std::string webhook_receiver::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::vector<webhook_receiver::request> webhook_receiver::received() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return received_;
}

void webhook_receiver::serve() {
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0)
      continue;
    int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0)
      continue;
    std::string data;
    char buf[4096];
    request req;
    std::size_t header_end = std::string::npos;
    std::size_t content_length = 0;
    for (;;) {
      pollfd c{fd, POLLIN, 0};
      if (::poll(&c, 1, 2000) <= 0)
        break;
      auto n = ::read(fd, buf, sizeof buf);
      if (n <= 0)
        break;
      data.append(buf, static_cast<std::size_t>(n));
      if (header_end == std::string::npos) {
        header_end = data.find("\r\n\r\n");
        if (header_end == std::string::npos)
          continue;
        auto first = data.find("\r\n");
        auto line = data.substr(0, first);
        auto sp1 = line.find(' ');
        auto sp2 = line.find(' ', sp1 + 1);
        req.method = line.substr(0, sp1);
        req.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
        std::size_t pos = first + 2;
        while (pos < header_end) {
          auto eol = data.find("\r\n", pos);
          auto h = data.substr(pos, eol - pos);
          auto colon = h.find(':');
          if (colon != std::string::npos)
            req.headers[lower(h.substr(0, colon))] = trim(h.substr(colon + 1));
          pos = eol + 2;
        }
        if (auto it = req.headers.find("content-length"); it != req.headers.end())
          content_length = std::stoul(it->second);
      }
      if (data.size() >= header_end + 4 + content_length)
        break;
    }
    if (header_end != std::string::npos) {
      req.body = data.substr(header_end + 4, content_length);
      int status = 0;
      std::string body;
      {
        std::lock_guard<std::mutex> guard{mutex_};
        received_.push_back(req);
        status = status_;
        body = body_;
        if (auto at = body.find("{n}"); at != std::string::npos)
          body.replace(at, 3, std::to_string(received_.size()));
      }
      std::string response = "HTTP/1.1 " + std::to_string(status) +
                             " Status\r\nContent-Type: application/json\r\nContent-Length: " +
                             std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
      auto written = ::write(fd, response.data(), response.size());
      (void)written;
    }
    ::close(fd);
  }
}

} // namespace vcs::test
