#include "actors/actor_error.hpp"

#include <caf/message.hpp>
#include <caf/sec.hpp>

namespace vcs::actors {

caf::error make_error(domain::error e) {
  auto code = e.code;
  return caf::make_error(code, std::move(e));
}

domain::error to_domain_error(const caf::error& e) {
  if (e.category() == caf::atom("vcs") && e.context().match_elements<domain::error>())
    return e.context().get_as<domain::error>(0);
  if (e.category() == caf::atom("system")) {
    auto code = static_cast<caf::sec>(e.code());
    // The receiver may still do a timed-out request's work; a dead one
    // never started it.
    if (code == caf::sec::request_timeout)
      return domain::outcome_unknown();
    if (code == caf::sec::request_receiver_down)
      return domain::service_unavailable();
  }
  return domain::internal_error();
}

} // namespace vcs::actors
