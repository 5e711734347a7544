#pragma once

#include <string>

namespace vcs::test {

struct command_result {
  int status = -1; // exit status; -1 when killed
  std::string out;
  std::string err;
};

// The service binary run with `args` in a clean environment (env -i, so
// the test's VCS_* variables stay out) plus `env` (NAME=value ...).
command_result run_service_command(const std::string& env, const std::string& args);

} // namespace vcs::test
