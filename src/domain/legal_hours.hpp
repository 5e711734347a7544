#pragma once

// The calling rules' hours and banned days, applied to one call: which
// rules govern it, whether they allow it at an instant, and when they next
// do. Every rule is read on the called person's local timeline (each zone
// the number may be in), so DST is the tz database's.

#include "domain/callee.hpp"
#include "domain/calling_rules.hpp"
#include "domain/timestamp.hpp"

#include <optional>
#include <vector>

#include <date/tz.h>

namespace vcs::domain {

// True when `rule` is of the callee's country and, when it is a
// subdivision's, of one the callee may be in (any, when none is known).
bool may_be_in(const callee& who, const calling_rule& rule);

// The rules of `book` that govern a call for `purpose` to `who`: the hours
// and day bans of its country and of every subdivision it may be in (all
// of the country's when none is known: the strictest applies). None for
// calling_purpose::none or an unknown country.
std::vector<const calling_rule*> governing_rules(const calling_rule_book& book,
                                                 calling_purpose purpose, const callee& who);

// True when `rule` allows a call at `now` on the local timeline of `zone`:
// a rule not in force on that local day allows it.
bool rule_allows(const calling_rule& rule, const date::time_zone* zone, timestamp now);

// The rule that forbids a call at `now` in one of `zones`, the one that
// holds it longest when several do; nullptr when every rule allows it.
const calling_rule* holding_rule(const std::vector<const calling_rule*>& rules,
                                 const std::vector<const date::time_zone*>& zones, timestamp now);

// The earliest instant >= `at` when every rule allows a call in every zone,
// looking up to 8 local days ahead; nullopt when none does then.
std::optional<timestamp> rules_allow_from(const std::vector<const calling_rule*>& rules,
                                          const std::vector<const date::time_zone*>& zones,
                                          timestamp at);

} // namespace vcs::domain
