#pragma once

// What a subscription actor is asked to do: billing changes and sweeps.

#include "domain/timestamp.hpp"

#include <caf/allowed_unsafe_message_type.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace vcs::actors {

// A payment request's new status (any of the five) and, optionally, the
// processor's payment reference.
struct payment_change {
  int64_t payment_id = 0;
  std::string status;
  std::optional<std::string> external_payment_id;
};

// Call minutes to record, or add-on minutes to add, in hundredths.
struct minutes_change {
  int64_t hundredths = 0;
};

// The time a billing sweep acts as.
struct sweep_request {
  domain::timestamp now{};
};

// What a billing sweep did.
struct sweep_counts {
  int64_t subscriptions = 0;         // subscriptions looked at
  int64_t overdue = 0;               // requests that became OVERDUE
  int64_t past_due = 0;              // subscriptions that became past_due
  int64_t blocked = 0;               // subscriptions that became blocked
  int64_t renewed = 0;               // billing periods started
  int64_t subscription_requests = 0; // SUBSCRIPTION requests issued
  int64_t overage_requests = 0;      // OVERAGE requests issued
  int64_t campaigns_paused = 0;
  int64_t failed = 0; // subscriptions whose sweep failed (retried next time)

  sweep_counts& operator+=(const sweep_counts& o) noexcept {
    subscriptions += o.subscriptions;
    overdue += o.overdue;
    past_due += o.past_due;
    blocked += o.blocked;
    renewed += o.renewed;
    subscription_requests += o.subscription_requests;
    overage_requests += o.overage_requests;
    campaigns_paused += o.campaigns_paused;
    failed += o.failed;
    return *this;
  }
};

} // namespace vcs::actors

// These types never leave the process.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::payment_change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::minutes_change)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::sweep_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::sweep_counts)
