#include "storage/storage_error.hpp"

#include "storage/prepared.hpp"

#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <string_view>

namespace vcs::storage {

std::string sqlstate_of(const std::exception& e) {
  if (auto pg = dynamic_cast<const soci::postgresql_soci_error*>(&e))
    return pg->sqlstate();
  if (auto pg = dynamic_cast<const pg_error*>(&e))
    return pg->sqlstate();
  return {};
}

bool is_connection_error(const std::exception& e) {
  auto state = sqlstate_of(e);
  // Class 08: connection exception; 57P01..57P03: server shutting down or
  // not yet accepting connections.
  if (state.rfind("08", 0) == 0 || state.rfind("57P0", 0) == 0)
    return true;
  if (auto soci_err = dynamic_cast<const soci::soci_error*>(&e);
      soci_err && soci_err->get_error_category() == soci::soci_error::connection_error)
    return true;
  // libpq reports a connection cut mid-statement (a crashed or restarted
  // server) with no SQLSTATE, and SOCI passes it on uncategorised: its
  // message is all there is.
  const std::string_view message = e.what();
  for (std::string_view lost :
       {"server closed the connection unexpectedly", "no connection to the server",
        "terminating connection", "connection to server was lost",
        "could not receive data from server", "could not send data to server"})
    if (message.find(lost) != std::string_view::npos)
      return true;
  return false;
}

bool is_out_of_time(const std::exception& e) {
  auto state = sqlstate_of(e);
  return state == "57014" || state == "55P03";
}

domain::error translate(const std::exception& e) {
  // A lost connection, a deadlock victim, a serialization failure, or a
  // statement stopped for time is transient: the client may retry.
  auto state = sqlstate_of(e);
  if (is_connection_error(e) || is_out_of_time(e) || state == "40P01" || state == "40001")
    return domain::service_unavailable();
  // Class 22, data exception: a value the request carried that PostgreSQL
  // cannot take (out of range, malformed). The request is at fault; the
  // statement's text and values stay out of the answer.
  if (state.rfind("22", 0) == 0)
    return {domain::errc::bad_request,
            "A value in the request is out of the range the service can store."};
  return domain::internal_error();
}

domain::error translate(const std::exception& e, bool connection_lost) {
  if (connection_lost)
    return domain::service_unavailable();
  return translate(e);
}

} // namespace vcs::storage
