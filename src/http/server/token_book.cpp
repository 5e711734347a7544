#include "http/server/token_book.hpp"

namespace vcs::http {

token_book::entry token_book::look_up(const std::string& key_hash, clock::time_point now) const {
  std::lock_guard lock{mutex_};
  for (const auto* g : {&newer_, &older_}) {
    auto it = g->find(key_hash);
    if (it == g->end())
      continue;
    if (it->second.expires <= now)
      return {};
    if (!it->second.tenant_id)
      return {standing::unknown, 0};
    return {standing::known, *it->second.tenant_id};
  }
  return {};
}

void token_book::learn_known(const std::string& key_hash, std::int64_t tenant_id,
                             clock::time_point now) {
  put(key_hash, {tenant_id, now + settings_.known_for});
}

void token_book::learn_unknown(const std::string& key_hash, clock::time_point now) {
  put(key_hash, {std::nullopt, now + settings_.unknown_for});
}

void token_book::put(const std::string& key_hash, record r) {
  std::lock_guard lock{mutex_};
  older_.erase(key_hash);
  if (newer_.size() >= settings_.capacity / 2 && !newer_.contains(key_hash)) {
    older_ = std::move(newer_);
    newer_ = {};
  }
  newer_.insert_or_assign(key_hash, r);
}

} // namespace vcs::http
