#include "domain/portal_banner.hpp"

namespace vcs::domain {

portal_banner banner_for(std::string_view subscription_status, bool unpaid_requests) noexcept {
  if (subscription_status == "blocked")
    return portal_banner::subscription_suspended;
  if (subscription_status == "past_due")
    return portal_banner::payment_overdue;
  return unpaid_requests ? portal_banner::outstanding_balance : portal_banner::none;
}

std::string_view to_string(portal_banner b) noexcept {
  switch (b) {
  case portal_banner::outstanding_balance:
    return "outstanding_balance";
  case portal_banner::payment_overdue:
    return "payment_overdue";
  case portal_banner::subscription_suspended:
    return "subscription_suspended";
  case portal_banner::none:
    break;
  }
  return "none";
}

std::string_view title_of(portal_banner b) noexcept {
  switch (b) {
  case portal_banner::outstanding_balance:
    return "Outstanding balance";
  case portal_banner::payment_overdue:
    return "Payment overdue – access restricted";
  case portal_banner::subscription_suspended:
    return "Subscription suspended";
  case portal_banner::none:
    break;
  }
  return "";
}

} // namespace vcs::domain
