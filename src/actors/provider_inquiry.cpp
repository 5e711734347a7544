#include "actors/provider_inquiry.hpp"

namespace vcs::actors {

std::string_view to_string(inquiry_outcome o) noexcept {
  switch (o) {
  case inquiry_outcome::ok:
    return "ok";
  case inquiry_outcome::credentials_refused:
    return "credentials_refused";
  case inquiry_outcome::unreachable:
    return "unreachable";
  case inquiry_outcome::unexpected_answer:
    return "unexpected_answer";
  }
  return {};
}

} // namespace vcs::actors
