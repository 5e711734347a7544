#pragma once

#include "domain/client.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vcs::domain {

// The eight resource kinds of an account configuration's assignments, in
// the spec's order; `campaign` holds global ids of the tenant's campaigns.
const std::vector<std::string>& resource_kinds();

// Most client users one create request may carry: each password costs about
// 60 ms of argon2id, so this bounds a request to about 1.5 s of hashing.
inline constexpr std::size_t client_users_max = 25;
// Most processor price ids one client's billing may select.
inline constexpr std::size_t price_ids_max = 50;
// Most ids of one resource kind one assignment request may carry.
inline constexpr std::size_t assigned_ids_max = 1'000;

// Assignments by kind, ids in the order sent; campaign ids canonical.
using assignments = std::vector<std::pair<std::string, std::vector<std::string>>>;

struct new_client_user {
  std::string email;
  std::string password_hash;
};

// A validated create-client request; `voice_provider_ref`, the product id
// and the campaign ids are checked against the tenant's records inside the
// creating transaction.
struct client_create {
  std::string name;
  std::string primary_email;
  std::vector<new_client_user> users;
  std::string asset_group_name;
  std::optional<int64_t> voice_provider_id;
  std::string voice_provider_ref;
  std::optional<std::string> product_id; // processor product id
  std::vector<std::string> price_ids;    // processor price ids
  std::vector<std::pair<std::string, std::string>> access;
  assignments assigned;
  // Decoded ids of the campaigns in `assigned`.
  std::vector<int64_t> campaign_ids;
};

struct created_client {
  client record;
  int64_t asset_group_id = 0;
};

} // namespace vcs::domain
