#include "storage/client_repository.hpp"

#include <soci/soci.h>

#include <stdexcept>
#include <unordered_map>

namespace vcs::storage {

namespace {

constexpr const char* list_clients_sql =
    "SELECT id, name, primary_email, created_at FROM clients WHERE tenant_id = :t "
    "ORDER BY created_at DESC, id DESC";

constexpr const char* list_users_sql =
    "SELECT client_id, id, email FROM client_users WHERE tenant_id = :t ORDER BY client_id, id";

} // namespace

std::vector<domain::client> list_clients(soci::session& sql, int64_t tenant_id) {
  std::vector<domain::client> clients;
  std::unordered_map<int64_t, std::size_t> index;
  {
    domain::client c;
    std::string created_at;
    soci::statement st = (sql.prepare << list_clients_sql, soci::use(tenant_id), soci::into(c.id),
                          soci::into(c.name), soci::into(c.primary_email), soci::into(created_at));
    st.execute();
    while (st.fetch()) {
      auto t = domain::parse_pg_timestamp(created_at);
      if (!t)
        throw std::runtime_error("unreadable client row");
      c.created_at = *t;
      index.emplace(c.id, clients.size());
      clients.push_back(c);
    }
  }
  int64_t client_id = 0;
  domain::client_user u;
  soci::statement st = (sql.prepare << list_users_sql, soci::use(tenant_id), soci::into(client_id),
                        soci::into(u.id), soci::into(u.email));
  st.execute();
  while (st.fetch()) {
    if (auto it = index.find(client_id); it != index.end())
      clients[it->second].users.push_back(u);
  }
  return clients;
}

} // namespace vcs::storage
