#pragma once

#include <string>

namespace vcs::test {

// The value of one series of a Prometheus text scrape (its name with
// labels, as written), or -1 when the scrape has no such series.
double metric_value(const std::string& text, const std::string& series);

} // namespace vcs::test
