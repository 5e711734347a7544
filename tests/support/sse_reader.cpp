#include "sse_reader.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace vcs::test {

sse_reader::sse_reader(unsigned short port, const std::string& target, const header_list& headers) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error("sse_reader: cannot connect");
  std::string request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                        "\r\nAccept: text/event-stream\r\n";
  for (const auto& [name, value] : headers)
    request += name + ": " + value + "\r\n";
  request += "\r\n";
  ::send(fd_, request.data(), request.size(), MSG_NOSIGNAL);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::size_t end;
  while ((end = buffer_.find("\r\n\r\n")) == std::string::npos)
    if (!fill(until))
      return;
  std::istringstream head{buffer_.substr(0, end)};
  std::string line;
  std::getline(head, line);
  status_ = static_cast<unsigned>(std::stoul(line.substr(9, 3)));
  while (std::getline(head, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    auto colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    auto name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    headers_[name] = line.substr(line.find_first_not_of(' ', colon + 1));
  }
  buffer_.erase(0, end + 4);
  // A refusal has a length: read all of it.
  if (auto length = header("content-length"); !length.empty())
    while (buffer_.size() < std::stoul(length) && fill(until)) {
    }
}

sse_reader::~sse_reader() {
  close();
}

std::string sse_reader::header(const std::string& lower_name) const {
  auto it = headers_.find(lower_name);
  return it == headers_.end() ? std::string{} : it->second;
}

void sse_reader::close() {
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
}

bool sse_reader::fill(std::chrono::steady_clock::time_point until) {
  if (fd_ < 0)
    return false;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      until - std::chrono::steady_clock::now());
  if (left.count() <= 0)
    return false;
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
    return false;
  char chunk[4096];
  auto n = ::recv(fd_, chunk, sizeof chunk, 0);
  if (n <= 0) {
    close();
    return false;
  }
  buffer_.append(chunk, static_cast<std::size_t>(n));
  return true;
}

std::optional<sse_event> sse_reader::next(std::chrono::milliseconds wait) {
  const auto until = std::chrono::steady_clock::now() + wait;
  for (;;) {
    // Frames end with an empty line; comments and retry lines carry no
    // event.
    for (std::size_t end; (end = buffer_.find("\n\n")) != std::string::npos;) {
      std::istringstream frame{buffer_.substr(0, end)};
      buffer_.erase(0, end + 2);
      sse_event e;
      bool any = false;
      for (std::string line; std::getline(frame, line);) {
        auto field = [&](const char* name) -> std::optional<std::string> {
          const std::string prefix = std::string{name} + ": ";
          if (line.rfind(prefix, 0) != 0)
            return std::nullopt;
          return line.substr(prefix.size());
        };
        if (auto v = field("id"))
          e.id = *v, any = true;
        else if (auto v = field("event"))
          e.type = *v, any = true;
        else if (auto v = field("data"))
          e.data += *v, any = true;
      }
      if (any && !e.type.empty())
        return e;
    }
    if (!fill(until))
      return std::nullopt;
  }
}

std::optional<sse_event> sse_reader::next_feed_event(std::chrono::milliseconds wait) {
  const auto until = std::chrono::steady_clock::now() + wait;
  for (;;) {
    auto e = next(std::chrono::duration_cast<std::chrono::milliseconds>(
        std::max(until - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration{})));
    if (!e || !e->id.empty())
      return e;
  }
}

} // namespace vcs::test
