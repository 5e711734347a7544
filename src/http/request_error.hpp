#pragma once

#include "domain/error.hpp"

#include <exception>
#include <optional>
#include <utility>

namespace vcs::http {

// Refuses the request with `error`. A handler's helper throws it instead of
// answering the client out of sight; the request worker's catch around
// handle() answers it (request_worker.cpp). Nothing catches it in an
// asynchronous continuation (an actor's reply, a CPU-pool step's rest), so a
// helper called there returns domain::result instead.
class request_error : public std::exception {
public:
  explicit request_error(domain::error e) : error_(std::move(e)) {}
  const domain::error& error() const noexcept { return error_; }
  const char* what() const noexcept override { return error_.message.c_str(); }

private:
  domain::error error_;
};

// The value of `r`; its error thrown as a request_error.
template <class T> T value_or_throw(domain::result<T> r) {
  if (!r)
    throw request_error(std::move(r).err());
  return std::move(r).value();
}

// Throws `problem`, when there is one, as a request_error.
inline void throw_if_refused(std::optional<domain::error> problem) {
  if (problem)
    throw request_error(std::move(*problem));
}

} // namespace vcs::http
