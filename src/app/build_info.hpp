#pragma once

// What this binary was built from (cmake/BuildInfo.cmake writes the
// definitions at every build).
namespace vcs::app {

extern const char* const build_version;
extern const char* const build_commit;

} // namespace vcs::app
