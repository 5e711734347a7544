#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace vcs::app {

// A list answer shown as columns: the member holding the list and the
// members shown, nested ones as `outer.inner`.
struct table_view {
  std::string list_key;
  std::vector<std::string> columns;
};

// A successful answer: a list as aligned columns under a header when
// `view` names one, otherwise the object as `name: value` lines (nested
// members as `outer.inner`). A body that is not JSON is written as it is.
void print_answer(const std::string& body, const std::optional<table_view>& view,
                  std::ostream& out);

// A refusal: `error: <status>: <message>`, then each field's messages.
void print_refusal(unsigned status, const std::string& body, std::ostream& err);

} // namespace vcs::app
