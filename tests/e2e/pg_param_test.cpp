// Parameters and columns of the storage layer's one statement style,
// round-tripped through a real PostgreSQL.
#include "storage/database.hpp"
#include "storage/pg_array.hpp"
#include "storage/prepared.hpp"
#include "storage/storage_error.hpp"

#include "service_process.hpp"

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <soci/soci.h>

#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace vcs::storage {
namespace {

using test::database_url;

constexpr prepared_statement scalars_stmt{
    "test_scalars", "SELECT $1::bigint, $2::int, $3::boolean, $4::text, $5::timestamptz, "
                    "$6::bigint IS NULL, $7::text"};
// Two statements that (wrongly) share a name.
constexpr prepared_statement named_once_stmt{"test_shared_name", "SELECT 1"};
constexpr prepared_statement named_twice_stmt{"test_shared_name", "SELECT 2"};
constexpr prepared_statement text_array_stmt{"test_text_array",
                                             "SELECT $1::text[], cardinality($1::text[])"};
constexpr prepared_statement optional_text_array_stmt{
    "test_optional_text_array", "SELECT array_position($1::text[], NULL), $1::text[]"};
constexpr prepared_statement affected_stmt{"test_affected",
                                           "UPDATE pg_param_probe SET n = n + 1 WHERE n < $1"};
constexpr prepared_statement divide_stmt{"test_divide", "SELECT 100 / $1::int"};
constexpr prepared_statement probe_insert_stmt{
    "test_probe_insert", "INSERT INTO pg_param_probe VALUES ($1) RETURNING n"};
constexpr prepared_statement bigint_array_stmt{
    "test_bigint_array", "SELECT sum(x), count(x), count(*) FROM unnest($1::bigint[]) AS x"};

constexpr prepared_statement binary_arrays_stmt{
    "test_binary_arrays",
    "SELECT $1::text[], cardinality($1::text[]), array_position($1::text[], NULL), "
    "$2::text[]::jsonb[]::text, $3::boolean[]::text, $4::integer[]::text, $5::text[] IS NULL"};

class pg_param_test : public ::testing::Test {
protected:
  std::unique_ptr<soci::session> sql = open_session(database_url());
};

TEST_F(pg_param_test, scalars_and_optionals_keep_their_values) {
  const auto at = domain::timestamp{std::chrono::microseconds{1'795'000'000'123'456}};
  const int64_t big = std::numeric_limits<int64_t>::min();
  const std::optional<int64_t> none;
  const std::optional<std::string> text = "it's \"quoted\" \\ and, {braced}";
  auto rows = execute(*sql, scalars_stmt, {big, int32_t{-7}, true, "NULL", at, none, text});
  ASSERT_EQ(rows.size(), 1);
  EXPECT_EQ(rows.int64(0, 0), big);
  EXPECT_EQ(rows.int32(0, 1), -7);
  EXPECT_TRUE(rows.boolean(0, 2));
  EXPECT_FALSE(rows.is_null(0, 3));
  EXPECT_EQ(rows.text(0, 3), "NULL");
  EXPECT_EQ(rows.timestamp(0, 4), at);
  EXPECT_TRUE(rows.boolean(0, 5));
  EXPECT_EQ(rows.opt_text(0, 6), text);
}

TEST_F(pg_param_test, two_statements_of_one_name_are_refused_rather_than_confused) {
  EXPECT_EQ(execute(*sql, named_once_stmt, {}).int32(0, 0), 1);
  EXPECT_THROW(execute(*sql, named_twice_stmt, {}), std::logic_error);
  EXPECT_EQ(execute(*sql, named_once_stmt, {}).int32(0, 0), 1);
}

TEST_F(pg_param_test, text_arrays_round_trip_any_element) {
  const std::vector<std::string> items{"plain",    "",         "NULL",        "a,b",    "{x}",
                                       " spaced ", "quote\"d", "back\\slash", "ünïcödé"};
  auto rows = execute(*sql, text_array_stmt, {items});
  ASSERT_EQ(rows.size(), 1);
  EXPECT_EQ(rows.int64(0, 1), static_cast<int64_t>(items.size()));
  EXPECT_EQ(rows.text_array(0, 0), items);
}

TEST_F(pg_param_test, a_missing_element_is_null_and_the_word_null_is_not) {
  const std::vector<std::optional<std::string>> items{"NULL", std::nullopt, "x"};
  auto rows = execute(*sql, optional_text_array_stmt, {items});
  ASSERT_EQ(rows.size(), 1);
  EXPECT_EQ(rows.int32(0, 0), 2);
  EXPECT_THROW(rows.text_array(0, 1), std::runtime_error);
}

// Binary arrays (pg_array) arrive element for element: text of any bytes
// but NUL, nulls, JSON text (which casts to jsonb), booleans, integers at
// their limits, and no elements at all.
TEST_F(pg_param_test, binary_arrays_keep_every_element) {
  const std::vector<std::string> items{"plain",    "",         "NULL",        "a,b",    "{x}",
                                       " spaced ", "quote\"d", "back\\slash", "ünïcödé"};
  pg_array text{pg_element::text, items.size() + 1};
  for (const auto& i : items)
    text.add_text(std::string_view{i});
  text.add_text(std::optional<std::string>{});
  pg_array json{pg_element::text, 2};
  json.add_text(std::string_view{R"({"k":[1,"é"]})"});
  json.add_text(std::string_view{"{}"});
  pg_array flags{pg_element::boolean, 2};
  flags.add_bool(true);
  flags.add_bool(false);
  pg_array ints{pg_element::int4, 3};
  ints.add_int4(std::numeric_limits<int32_t>::min());
  ints.add_int4(0);
  ints.add_int4(std::numeric_limits<int32_t>::max());
  auto rows =
      execute(*sql, binary_arrays_stmt,
              {std::move(text).finish(), std::move(json).finish(), std::move(flags).finish(),
               std::move(ints).finish(), pg_array{pg_element::text, 0}.finish()});
  ASSERT_EQ(rows.size(), 1);
  EXPECT_EQ(rows.int64(0, 1), static_cast<int64_t>(items.size() + 1));
  EXPECT_EQ(rows.int32(0, 2), static_cast<int32_t>(items.size() + 1));
  EXPECT_EQ(rows.text(0, 3), R"({"{\"k\": [1, \"é\"]}","{}"})");
  EXPECT_EQ(rows.text(0, 4), "{t,f}");
  EXPECT_EQ(rows.text(0, 5), "{-2147483648,0,2147483647}");
  EXPECT_FALSE(rows.boolean(0, 6)) << "no elements is an empty array, not NULL";
  pg_array first{pg_element::text, items.size()};
  for (const auto& i : items)
    first.add_text(std::string_view{i});
  auto back = execute(*sql, text_array_stmt, {std::move(first).finish()});
  EXPECT_EQ(back.text_array(0, 0), items);
}

// A view sends its parameter's bytes as they are, binary or text or NULL,
// as often as it is made.
TEST_F(pg_param_test, a_view_sends_the_parameter_it_borrows) {
  const std::vector<std::string> items{"first", "", "third"};
  pg_array array{pg_element::text, items.size()};
  for (const auto& i : items)
    array.add_text(std::string_view{i});
  const pg_param binary = std::move(array).finish();
  const pg_param text{std::string{"it's text"}};
  const pg_param null{std::nullopt};
  for (int run = 0; run < 2; ++run) {
    auto back = execute(*sql, text_array_stmt, {pg_param::view(binary)});
    EXPECT_EQ(back.text_array(0, 0), items);
    auto scalars = execute(*sql, scalars_stmt,
                           {int64_t{1}, int32_t{2}, false, pg_param::view(text),
                            domain::timestamp{}, pg_param::view(null), std::nullopt});
    EXPECT_EQ(scalars.text(0, 3), "it's text");
    EXPECT_TRUE(scalars.boolean(0, 5));
  }
}

// An array must hold the elements it announced, no more and no fewer.
TEST_F(pg_param_test, a_binary_array_holds_what_it_announced) {
  pg_array two{pg_element::int4, 2};
  two.add_int4(1);
  EXPECT_THROW(std::move(two).finish(), std::logic_error);
  pg_array one{pg_element::int4, 1};
  one.add_int4(1);
  EXPECT_THROW(one.add_int4(2), std::logic_error);
}

TEST_F(pg_param_test, integer_arrays_with_gaps) {
  const std::vector<std::optional<int64_t>> items{5, std::nullopt, -2};
  auto rows = execute(*sql, bigint_array_stmt, {items});
  EXPECT_EQ(rows.int64(0, 0), 3);
  EXPECT_EQ(rows.int64(0, 1), 2);
  EXPECT_EQ(rows.int64(0, 2), 3);
  const std::vector<int64_t> plain{1, 2, 3};
  EXPECT_EQ(execute(*sql, bigint_array_stmt, {plain}).int64(0, 0), 6);
}

TEST_F(pg_param_test, an_integer_column_past_32_bits_is_refused) {
  auto rows = execute(*sql, scalars_stmt,
                      {int64_t{1} << 40, int32_t{0}, false, "", domain::now(), int64_t{1}, "x"});
  EXPECT_THROW(rows.int32(0, 0), std::runtime_error);
  EXPECT_EQ(rows.opt_int64(0, 0), int64_t{1} << 40);
}

TEST_F(pg_param_test, a_write_counts_the_rows_it_changed) {
  *sql << "CREATE TEMP TABLE pg_param_probe (n int)";
  *sql << "INSERT INTO pg_param_probe SELECT generate_series(1, 5)";
  EXPECT_EQ(execute(*sql, affected_stmt, {3}).affected(), 2);
  EXPECT_EQ(execute(*sql, affected_stmt, {0}).affected(), 0);
}

// begin_with sends BEGIN and its statement together: the statement runs
// inside the new transaction, which the caller ends.
TEST_F(pg_param_test, begin_with_runs_its_statement_first_in_a_new_transaction) {
  *sql << "CREATE TEMP TABLE pg_param_probe (n int)";
  auto rows = begin_with(*sql, probe_insert_stmt, {7});
  ASSERT_EQ(rows.size(), 1);
  EXPECT_EQ(rows.int32(0, 0), 7);
  EXPECT_EQ(PQtransactionStatus(raw_connection(*sql)), PQTRANS_INTRANS);
  sql->rollback();
  int count = -1;
  *sql << "SELECT count(*) FROM pg_param_probe", soci::into(count);
  EXPECT_EQ(count, 0);
  begin_with(*sql, probe_insert_stmt, {8});
  sql->commit();
  *sql << "SELECT count(*) FROM pg_param_probe", soci::into(count);
  EXPECT_EQ(count, 1);
}

// A failing first statement throws its own error, and the connection is
// out of pipeline mode and serves the next statements.
TEST_F(pg_param_test, begin_with_a_failing_statement_leaves_the_connection_usable) {
  try {
    begin_with(*sql, divide_stmt, {0});
    ADD_FAILURE() << "division by zero did not throw";
  } catch (const pg_error& e) {
    EXPECT_EQ(e.sqlstate(), "22012");
  }
  EXPECT_EQ(PQpipelineStatus(raw_connection(*sql)), PQ_PIPELINE_OFF);
  EXPECT_EQ(PQtransactionStatus(raw_connection(*sql)), PQTRANS_INERROR);
  sql->rollback();
  EXPECT_EQ(execute(*sql, divide_stmt, {4}).int32(0, 0), 25);
  EXPECT_EQ(begin_with(*sql, divide_stmt, {5}).int32(0, 0), 20);
  sql->rollback();
}

// A data exception (SQLSTATE class 22) is the request's fault: a 400 in
// the envelope, whichever way the statement was sent, and no SQL in it.
TEST_F(pg_param_test, a_data_exception_is_a_bad_request) {
  const auto expect_bad_request = [](const std::exception& e) {
    const auto err = translate(e);
    EXPECT_EQ(err.code, domain::errc::bad_request) << e.what();
    EXPECT_EQ(err.message.find("SELECT"), std::string::npos) << err.message;
  };
  try {
    execute(*sql, divide_stmt, {0});
    ADD_FAILURE() << "division by zero did not throw";
  } catch (const pg_error& e) {
    EXPECT_EQ(e.sqlstate(), "22012");
    expect_bad_request(e);
  }
  try {
    *sql << "SELECT '10000-99-99'::timestamptz";
    ADD_FAILURE() << "a malformed timestamp did not throw";
  } catch (const soci::soci_error& e) {
    EXPECT_EQ(sqlstate_of(e).substr(0, 2), "22");
    expect_bad_request(e);
  }
  // Other failures stay what they were.
  try {
    *sql << "SELECT * FROM no_such_table";
    ADD_FAILURE() << "a missing table did not throw";
  } catch (const soci::soci_error& e) {
    EXPECT_EQ(translate(e).code, domain::errc::internal);
  }
}

} // namespace
} // namespace vcs::storage
