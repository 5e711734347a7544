#pragma once

#include "domain/error.hpp"

#include <any>
#include <functional>
#include <optional>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// What one write of a batch made: its value when it did its work, else the
// error that refuses it (its effects are then undone, the others' kept).
using write_result = domain::result<std::any>;

// One write of a batch. It only reads what it captured, so running it twice
// is safe.
using batch_write = std::function<write_result(soci::session&)>;

// Begins a batch's transaction, taking the entity's row lock in the same
// round trip as the BEGIN (begin_with); an error when the entity does not
// exist. Without one, a plain BEGIN.
using batch_prologue = std::function<std::optional<domain::error>(soci::session&)>;

struct batch_outcome {
  // Per write, in order: its value when it committed, else its error.
  std::vector<write_result> writes;
  // The prologue refused: no write ran, each answers its error.
  bool refused = false;
};

// Runs `writes` in one transaction, each write's failure its own. A lost
// connection or a transaction out of time (a timeout, the cancel at a
// deadline) is thrown: no write of the batch can outlive it.
batch_outcome run_write_batch(soci::session& sql, const batch_prologue& prologue,
                              const std::vector<batch_write>& writes);

} // namespace vcs::storage
