#pragma once

#include "domain/error.hpp"

#include <exception>
#include <stdexcept>
#include <string>

namespace vcs::storage {

// Maps an exception thrown by a repository to a domain error: a lost
// connection is `unavailable` (503), a data exception (SQLSTATE class 22)
// `bad_request` (400), anything else `internal` (500).
// Repositories answer the outcomes a caller expects (a duplicate, a missing
// row) as values, never as exceptions.
domain::error translate(const std::exception& e);

// As above, and `unavailable` whenever the session's connection is gone
// (storage::connection_lost): libpq reports a connection lost mid-statement
// without an SQLSTATE.
domain::error translate(const std::exception& e, bool connection_lost);

// The SQLSTATE of a PostgreSQL error, or an empty string.
std::string sqlstate_of(const std::exception& e);

bool is_connection_error(const std::exception& e);
// A statement stopped for time: statement_timeout or a cancel (57014), or
// lock_timeout (55P03). Its transaction's time is up: nothing in it is
// worth running again now.
bool is_out_of_time(const std::exception& e);

} // namespace vcs::storage
