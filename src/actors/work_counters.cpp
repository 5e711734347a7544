#include "actors/work_counters.hpp"

namespace vcs::actors {

work_counters& counters() {
  static work_counters all;
  return all;
}

} // namespace vcs::actors
