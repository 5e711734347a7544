#pragma once

// A calling window that the calling rules make useless. With
// lead_local_time a campaign's window is read in each lead's own time, as
// the rules are; when the campaign's time zone is in a country the data
// covers (calling_rule_book::zone_country) and no minute of the window, on
// any of its days, is allowed by every national hours rule and day ban of
// that country for the campaign's purpose, no lead there could ever be
// called. Such a window is refused when it is set (campaign create and
// update). A window in the campaign's own zone meets the country's other
// zones at other hours, so it is left to the leads' dial states.

#include "domain/calling_rules.hpp"
#include "domain/campaign.hpp"
#include "domain/dial_policy.hpp"
#include "domain/error.hpp"
#include "domain/timestamp.hpp"

#include <optional>

namespace vcs::domain {

// The national rule that leaves the window no minute (the one that allows
// it fewest), for the rules in force on the local day of `now`; nullptr
// when the window is of use, has no minute at all, or no rule applies.
const calling_rule* window_outside_rules(const dial_policy& p, timestamp now);

// 400 Invalid data, under daily_start_time: the window, the rule, its
// hours and source, and what to change.
error window_outside_legal_hours(const dial_policy& p, const calling_rule& rule);

// After a create or an update `f` of `written` that sets its window, days,
// zone, lead_local_time or calling_purpose: the refusal when the rules make
// the window useless (the write's transaction is then rolled back).
std::optional<error> refuse_useless_window(const campaign& written, const campaign_fields& f,
                                           timestamp now);

} // namespace vcs::domain
