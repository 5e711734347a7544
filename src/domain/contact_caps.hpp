#pragma once

// The calling rules' contact caps (at most N calls to a person in a
// rolling window), applied to one call. A cap counts the tenant's calls to
// the number on every campaign and node (storage::lock_recent_contacts);
// a person is taken to be their number, and every campaign of the tenant
// one subject, which counts at least what the law counts.

#include "domain/callee.hpp"
#include "domain/calling_rules.hpp"
#include "domain/tenant_contact_cap.hpp"
#include "domain/timestamp.hpp"

#include <chrono>
#include <optional>
#include <vector>

#include <date/tz.h>

namespace vcs::domain {

// The caps of `book` that govern a call for `purpose` to `who` and are in
// force at `now` on the local day of the first of `zones` (the strictest
// when the place is not known, as governing_rules).
std::vector<const calling_rule*> governing_caps(const calling_rule_book& book,
                                                calling_purpose purpose, const callee& who,
                                                const std::vector<const date::time_zone*>& zones,
                                                timestamp now);

// The id of the rule that stands for a tenant's own cap.
inline constexpr std::string_view tenant_cap_id = "tenant-contact-cap";

// A tenant's cap as a calling rule (tenant_cap_id, no jurisdiction and no
// source: it is the tenant's own), governing every purpose everywhere.
calling_rule tenant_cap_rule(const tenant_contact_cap& cap);

// The longest window and the largest count of the book's caps and the
// tenant's (when it has one): how far back and how many of a number's
// calls a check needs.
struct contact_lookback {
  std::chrono::hours window{0};
  int32_t calls = 0;
};
contact_lookback lookback_of(const calling_rule_book& book, const calling_rule* tenant_cap);

struct cap_hold {
  const calling_rule* rule = nullptr;
  // When the call that fills the cap leaves its window.
  timestamp frees_at{};
};

// The cap that `recent` (the instants of the number's calls, newest first,
// at least lookback_of().calls of them when there are so many) has reached
// at `now`: the one that frees latest when several have; nullopt when a
// call may be placed.
std::optional<cap_hold> cap_reached(const std::vector<const calling_rule*>& caps,
                                    const std::vector<timestamp>& recent, timestamp now);

} // namespace vcs::domain
