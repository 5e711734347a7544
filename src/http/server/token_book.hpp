#pragma once

// What this node has learned of bearer tokens, by their hash
// (domain::hash_api_key): the tenant of each key that was read, so the fair
// queue gives all keys of a tenant one share before the request is
// authenticated; and the tokens that match no key, answered 401 on the I/O
// thread for a few seconds without a database read or a worker. Every
// request that gets to a worker is still authenticated in full: a key
// disabled or deleted stops working at once.
//
// Bounded: entries live in two generations of at most `capacity / 2` each;
// when the newer fills, the older goes.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace vcs::http {

class token_book {
public:
  using clock = std::chrono::steady_clock;

  struct settings {
    // How long a key's tenant is remembered (scheduling only).
    std::chrono::seconds known_for{600};
    // How long a token that matched no key is refused without a lookup. A
    // new key is random, so no token refused here becomes valid meanwhile.
    std::chrono::seconds unknown_for{10};
    std::size_t capacity = 131'072;
  };

  enum class standing { unseen, known, unknown };
  struct entry {
    standing is = standing::unseen;
    std::int64_t tenant_id = 0;
  };

  token_book() : token_book(settings{}) {}
  explicit token_book(settings s) : settings_(s) {}

  entry look_up(const std::string& key_hash, clock::time_point now) const;
  // The key exists (in any status) and is `tenant_id`'s.
  void learn_known(const std::string& key_hash, std::int64_t tenant_id, clock::time_point now);
  // No key has this hash.
  void learn_unknown(const std::string& key_hash, clock::time_point now);

private:
  struct record {
    std::optional<std::int64_t> tenant_id;
    clock::time_point expires;
  };
  using generation = std::unordered_map<std::string, record>;

  void put(const std::string& key_hash, record r);

  settings settings_;
  mutable std::mutex mutex_;
  generation newer_;
  generation older_;
};

} // namespace vcs::http
