#pragma once

#include "domain/secret_box.hpp"
#include "domain/timestamp.hpp"
#include "storage/pg_param.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct pg_conn;
typedef struct pg_conn PGconn;
struct pg_result;
typedef struct pg_result PGresult;

namespace soci {
class session;
}

namespace vcs::storage {

// A statement of the hot paths, with $1..$n placeholders. It is prepared once
// per connection and then executed in one round trip without re-planning
// (SOCI's prepared statements cost PREPARE, EXECUTE and DEALLOCATE every
// time).
struct prepared_statement {
  const char* name;
  const char* sql;
};

// The session's libpq connection, or null before it is opened.
PGconn* raw_connection(soci::session& sql);

// Forgets which statements this thread prepared on the session's connection:
// called before the connection is replaced, since a new connection may get
// the old one's address and has none of its statements.
void forget_prepared_statements(soci::session& sql);

// A failed libpq call, with its SQLSTATE (storage_error.cpp maps it).
class pg_error : public std::runtime_error {
public:
  pg_error(std::string sqlstate, const std::string& message)
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)) {}
  const std::string& sqlstate() const noexcept { return sqlstate_; }

private:
  std::string sqlstate_;
};

// Text-format result rows.
class pg_rows {
public:
  explicit pg_rows(PGresult* r) noexcept : r_(r) {}
  pg_rows(pg_rows&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  pg_rows(const pg_rows&) = delete;
  pg_rows& operator=(const pg_rows&) = delete;
  pg_rows& operator=(pg_rows&&) = delete;
  ~pg_rows();

  int size() const noexcept;
  // Rows an INSERT, UPDATE or DELETE changed (with or without RETURNING).
  int64_t affected() const;
  bool is_null(int row, int col) const noexcept;
  std::string_view text(int row, int col) const noexcept;
  std::optional<std::string> opt_text(int row, int col) const;
  int64_t int64(int row, int col) const;
  // An integer column that must fit 32 bits; throws otherwise.
  int32_t int32(int row, int col) const;
  std::optional<int64_t> opt_int64(int row, int col) const;
  std::optional<int32_t> opt_int32(int row, int col) const;
  bool boolean(int row, int col) const noexcept;
  // A text column read by `parse` (text to an optional value, as the
  // domain's parse_* functions); throws when it does not parse.
  template <class Parse> auto parsed(int row, int col, Parse parse) const {
    auto v = parse(text(row, col));
    if (!v)
      throw std::runtime_error("unreadable column " + std::to_string(col));
    return *std::move(v);
  }
  // A text[] column (no NULL elements); throws when unreadable.
  std::vector<std::string> text_array(int row, int col) const;
  // A timestamptz in PostgreSQL's text form (sessions run in UTC); throws
  // when unreadable.
  domain::timestamp timestamp(int row, int col) const;
  std::optional<domain::timestamp> opt_timestamp(int row, int col) const;
  // Sealed secret columns selected as encode(ciphertext, 'hex') and
  // encode(nonce, 'hex'); nullopt when either is NULL.
  std::optional<domain::secret_box::sealed> opt_sealed(int row, int ciphertext_col,
                                                       int nonce_col) const;

  // Columns of a result_format::binary result (text columns read with
  // text() either way): no number or timestamp formatting on either side.
  int64_t bin_int64(int row, int col) const noexcept;
  int32_t bin_int32(int row, int col) const noexcept;
  bool bin_bool(int row, int col) const noexcept;
  domain::timestamp bin_timestamp(int row, int col) const noexcept;
  std::optional<domain::timestamp> bin_opt_timestamp(int row, int col) const noexcept;
  // jsonb's binary form is a version byte and the JSON text.
  std::string_view bin_jsonb(int row, int col) const noexcept;

private:
  PGresult* r_;
};

// Text results suit small lookups; binary ones the large lists.
enum class result_format : int { text = 0, binary = 1 };

pg_rows execute(soci::session& sql, const prepared_statement& st,
                std::initializer_list<pg_param> params, result_format format = result_format::text);

// Starts a transaction with `st` as its first statement, in one round trip:
// BEGIN and the statement are sent together (libpq's pipeline mode), so an
// entity's row lock costs its transaction no round trip of its own. The
// caller ends the transaction as usual (commit, rollback).
pg_rows begin_with(soci::session& sql, const prepared_statement& st,
                   std::initializer_list<pg_param> params);

} // namespace vcs::storage
