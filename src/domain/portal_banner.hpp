#pragma once

// The banner of the portal's billing page: what the client must know about
// its payments, from the subscription's status and its unpaid requests.

#include <string_view>

namespace vcs::domain {

enum class portal_banner { none, outstanding_balance, payment_overdue, subscription_suspended };

// blocked: suspended; past_due: overdue; otherwise an unpaid (PENDING,
// FAILED or OVERDUE) payment request is an outstanding balance.
portal_banner banner_for(std::string_view subscription_status, bool unpaid_requests) noexcept;

// "outstanding_balance", "payment_overdue", "subscription_suspended".
std::string_view to_string(portal_banner b) noexcept;
// "Outstanding balance", "Payment overdue – access restricted",
// "Subscription suspended".
std::string_view title_of(portal_banner b) noexcept;

} // namespace vcs::domain
