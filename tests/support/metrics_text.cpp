#include "metrics_text.hpp"

#include <sstream>

namespace vcs::test {

double metric_value(const std::string& text, const std::string& series) {
  std::istringstream in{text};
  for (std::string line; std::getline(in, line);)
    if (line.rfind(series + " ", 0) == 0)
      return std::stod(line.substr(series.size() + 1));
  return -1;
}

} // namespace vcs::test
