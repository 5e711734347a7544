#include "storage/prepared.hpp"

#include "domain/hex.hpp"

#include <libpq-fe.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <charconv>
#include <limits>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace vcs::storage {

namespace {

// Statements already prepared, per connection, by name with their text.
// Each connection is used by one thread at a time (a detached worker owns
// its session). Statements are constants, so the address of their name
// identifies them without building a string on every query; the compiler
// may merge equal names of two statements, so the text is kept to tell
// them apart.
thread_local std::unordered_map<PGconn*, std::unordered_map<const char*, const char*>> prepared_on;

// Whether `st` is prepared on `conn`; a logic_error when another statement
// of the same name is: two statements may not share a name.
bool is_prepared(PGconn* conn, const prepared_statement& st) {
  auto& on = prepared_on[conn];
  auto it = on.find(st.name);
  if (it == on.end())
    return false;
  if (it->second != st.sql && std::string_view{it->second} != st.sql)
    throw std::logic_error(std::string{"two prepared statements are named "} + st.name);
  return true;
}

PGconn* connection_of(soci::session& sql) {
  auto* conn = raw_connection(sql);
  if (!conn)
    throw pg_error("08003", "no database connection");
  return conn;
}

[[noreturn]] void fail(PGconn* conn, PGresult* r) {
  std::string state;
  if (r) {
    if (const char* s = PQresultErrorField(r, PG_DIAG_SQLSTATE))
      state = s;
  }
  if (state.empty() && PQstatus(conn) != CONNECTION_OK)
    state = "08006";
  std::string message = r ? PQresultErrorMessage(r) : PQerrorMessage(conn);
  PQclear(r);
  throw pg_error(state, message);
}

bool ok(PGresult* r) {
  auto s = PQresultStatus(r);
  return s == PGRES_TUPLES_OK || s == PGRES_COMMAND_OK;
}

void prepare(PGconn* conn, const prepared_statement& st) {
  PGresult* r = PQprepare(conn, st.name, st.sql, 0, nullptr);
  if (!ok(r))
    fail(conn, r);
  PQclear(r);
  prepared_on[conn].emplace(st.name, st.sql);
}

// A statement the cache lists is missing on the server: the cache outlived
// its session.
bool statement_missing(const PGresult* r) {
  const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  return state && std::string_view{state} == "26000";
}

void prepare_again(PGconn* conn, const prepared_statement& st) {
  prepared_on[conn].erase(st.name);
  prepare(conn, st);
}

} // namespace

PGconn* raw_connection(soci::session& sql) {
  auto* backend = static_cast<soci::postgresql_session_backend*>(sql.get_backend());
  return backend ? backend->conn_ : nullptr;
}

void forget_prepared_statements(soci::session& sql) {
  if (auto* conn = raw_connection(sql))
    prepared_on.erase(conn);
}

pg_rows::~pg_rows() {
  PQclear(r_);
}

int pg_rows::size() const noexcept {
  return PQntuples(r_);
}

int64_t pg_rows::affected() const {
  std::string_view t = PQcmdTuples(r_);
  int64_t v = 0;
  std::from_chars(t.data(), t.data() + t.size(), v);
  return v;
}

bool pg_rows::is_null(int row, int col) const noexcept {
  return PQgetisnull(r_, row, col) != 0;
}

std::string_view pg_rows::text(int row, int col) const noexcept {
  return {PQgetvalue(r_, row, col), static_cast<std::size_t>(PQgetlength(r_, row, col))};
}

std::optional<std::string> pg_rows::opt_text(int row, int col) const {
  if (is_null(row, col))
    return std::nullopt;
  return std::string{text(row, col)};
}

int64_t pg_rows::int64(int row, int col) const {
  auto t = text(row, col);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc{} || ptr != t.data() + t.size())
    throw std::runtime_error("not an integer column value");
  return v;
}

int32_t pg_rows::int32(int row, int col) const {
  auto v = int64(row, col);
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
    throw std::runtime_error("integer column value out of range");
  return static_cast<int32_t>(v);
}

std::optional<int64_t> pg_rows::opt_int64(int row, int col) const {
  if (is_null(row, col))
    return std::nullopt;
  return int64(row, col);
}

std::optional<int32_t> pg_rows::opt_int32(int row, int col) const {
  if (is_null(row, col))
    return std::nullopt;
  return int32(row, col);
}

std::vector<std::string> pg_rows::text_array(int row, int col) const {
  // PostgreSQL's array output: {a,"b c","d\"e"}; an element is quoted when
  // it holds a delimiter, a quote, a backslash or spaces, or spells NULL.
  auto t = text(row, col);
  if (t.size() < 2 || t.front() != '{' || t.back() != '}')
    throw std::runtime_error("unreadable array column");
  std::vector<std::string> out;
  std::size_t i = 1;
  const std::size_t end = t.size() - 1;
  while (i < end) {
    std::string item;
    if (t[i] == '"') {
      for (++i; i < end && t[i] != '"'; ++i) {
        if (t[i] == '\\' && i + 1 < end)
          ++i;
        item += t[i];
      }
      if (i >= end)
        throw std::runtime_error("unreadable array column");
      ++i;
    } else {
      for (; i < end && t[i] != ','; ++i)
        item += t[i];
      if (item == "NULL")
        throw std::runtime_error("NULL element in array column");
    }
    out.push_back(std::move(item));
    if (i < end && t[i] == ',')
      ++i;
  }
  return out;
}

bool pg_rows::boolean(int row, int col) const noexcept {
  auto t = text(row, col);
  return !t.empty() && t[0] == 't';
}

domain::timestamp pg_rows::timestamp(int row, int col) const {
  return parsed(row, col, domain::parse_pg_timestamp);
}

std::optional<domain::timestamp> pg_rows::opt_timestamp(int row, int col) const {
  if (is_null(row, col))
    return std::nullopt;
  return timestamp(row, col);
}

std::optional<domain::secret_box::sealed> pg_rows::opt_sealed(int row, int ciphertext_col,
                                                              int nonce_col) const {
  if (is_null(row, ciphertext_col) || is_null(row, nonce_col))
    return std::nullopt;
  auto ct = domain::from_hex(text(row, ciphertext_col));
  auto nonce = domain::from_hex(text(row, nonce_col));
  if (!ct || !nonce)
    throw std::runtime_error("unreadable sealed secret columns");
  return domain::secret_box::sealed{std::move(*ct), std::move(*nonce)};
}

namespace {

// Network byte order to host.
template <class T> T big_endian(const char* p) noexcept {
  std::make_unsigned_t<T> v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    v = static_cast<std::make_unsigned_t<T>>((v << 8) | static_cast<unsigned char>(p[i]));
  return static_cast<T>(v);
}

// PostgreSQL's epoch, 2000-01-01, in Unix microseconds.
constexpr int64_t pg_epoch_us = 946'684'800'000'000;

} // namespace

int64_t pg_rows::bin_int64(int row, int col) const noexcept {
  return big_endian<int64_t>(PQgetvalue(r_, row, col));
}

int32_t pg_rows::bin_int32(int row, int col) const noexcept {
  return big_endian<int32_t>(PQgetvalue(r_, row, col));
}

bool pg_rows::bin_bool(int row, int col) const noexcept {
  return PQgetvalue(r_, row, col)[0] != 0;
}

domain::timestamp pg_rows::bin_timestamp(int row, int col) const noexcept {
  return domain::timestamp{std::chrono::microseconds{bin_int64(row, col) + pg_epoch_us}};
}

std::optional<domain::timestamp> pg_rows::bin_opt_timestamp(int row, int col) const noexcept {
  if (is_null(row, col))
    return std::nullopt;
  return bin_timestamp(row, col);
}

std::string_view pg_rows::bin_jsonb(int row, int col) const noexcept {
  auto t = text(row, col);
  return t.empty() ? t : t.substr(1);
}

namespace {

// A statement's parameters as libpq takes them.
struct param_values {
  std::vector<const char*> values;
  std::vector<int> lengths;
  std::vector<int> formats;

  int count() const noexcept { return static_cast<int>(values.size()); }
};

param_values values_of(std::initializer_list<pg_param> params) {
  param_values out;
  out.values.reserve(params.size());
  out.lengths.reserve(params.size());
  out.formats.reserve(params.size());
  for (const auto& p : params) {
    out.values.push_back(p.value());
    out.lengths.push_back(p.length());
    out.formats.push_back(p.format());
  }
  return out;
}

// The next result of a pipeline, which must be there (else the connection
// broke), and the null that ends it.
PGresult* next_result(PGconn* conn) {
  PGresult* r = PQgetResult(conn);
  if (!r)
    fail(conn, nullptr);
  if (PQresultStatus(r) != PGRES_PIPELINE_SYNC) {
    while (PGresult* extra = PQgetResult(conn))
      PQclear(extra);
  }
  return r;
}

// BEGIN and `st` sent together; the statement's result, once every result
// is read. Throws when BEGIN failed or the connection broke. Leaves the
// connection out of pipeline mode.
PGresult* send_begin_with(PGconn* conn, const prepared_statement& st, const param_values& params) {
  if (PQenterPipelineMode(conn) != 1)
    fail(conn, nullptr);
  // Every result is read before this returns or throws, unless the
  // connection broke; then what is left is dropped (bounded), so the
  // connection leaves pipeline mode whenever it still can.
  struct leave {
    PGconn* conn;
    ~leave() {
      for (int i = 0; i < 8 && PQexitPipelineMode(conn) != 1; ++i)
        PQclear(PQgetResult(conn));
    }
  } leave_pipeline{conn};
  if (PQsendQueryParams(conn, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0) != 1 ||
      PQsendQueryPrepared(conn, st.name, params.count(), params.values.data(),
                          params.lengths.data(), params.formats.data(), 0) != 1 ||
      PQpipelineSync(conn) != 1)
    fail(conn, nullptr);
  PGresult* begun = next_result(conn);
  PGresult* r = next_result(conn);
  PGresult* sync = next_result(conn);
  PQclear(sync);
  if (!ok(begun)) {
    PQclear(r);
    fail(conn, begun);
  }
  PQclear(begun);
  return r;
}

} // namespace

pg_rows begin_with(soci::session& sql, const prepared_statement& st,
                   std::initializer_list<pg_param> params) {
  PGconn* conn = connection_of(sql);
  const auto values = values_of(params);
  if (!is_prepared(conn, st))
    prepare(conn, st);
  PGresult* r = send_begin_with(conn, st, values);
  if (!ok(r)) {
    // This transaction is over; prepared again, it starts once more.
    if (statement_missing(r)) {
      PQclear(r);
      PQclear(PQexec(conn, "ROLLBACK"));
      prepare_again(conn, st);
      r = send_begin_with(conn, st, values);
    }
    if (!ok(r))
      fail(conn, r);
  }
  return pg_rows{r};
}

pg_rows execute(soci::session& sql, const prepared_statement& st,
                std::initializer_list<pg_param> params, result_format format) {
  PGconn* conn = connection_of(sql);
  const auto values = values_of(params);
  if (!is_prepared(conn, st))
    prepare(conn, st);
  auto run = [&] {
    return PQexecPrepared(conn, st.name, values.count(), values.values.data(),
                          values.lengths.data(), values.formats.data(), static_cast<int>(format));
  };
  PGresult* r = run();
  if (!ok(r)) {
    // Prepared again, and run again when no transaction was aborted by the
    // failure.
    if (statement_missing(r) && PQtransactionStatus(conn) == PQTRANS_IDLE) {
      PQclear(r);
      prepare_again(conn, st);
      r = run();
    }
    if (!ok(r))
      fail(conn, r);
  }
  return pg_rows{r};
}

} // namespace vcs::storage
