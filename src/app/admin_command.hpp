#pragma once

#include "app/config.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace vcs::app {

// `voice-campaign-service admin ...`: the operator API's everyday calls
// from a shell, made over HTTP to a running node with the operator token of
// the configuration. `args` are the words and options after `admin`.
// Returns the exit status: 0 done, 1 refused by the API or not reached,
// 2 a usage mistake (nothing sent).
int run_admin(const config& c, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err);

// The admin commands, their operands and options.
std::string admin_usage();

} // namespace vcs::app
