#pragma once

#include "actors/actors.hpp"
#include "http/work/fair_queue.hpp"
#include "http/work/handler.hpp"
#include "http/work/request_worker_actor.hpp"
#include "http/work/router.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace vcs::http {

struct request_worker_state {
  static inline const char* name = "request-worker";

  request_worker_state() = default;
  ~request_worker_state();

  std::shared_ptr<const services> svc;
  std::unique_ptr<storage::lazy_session> sql;
  // The listener's fair queue, and this worker's place in it.
  std::shared_ptr<fair_queue> queue;
  std::size_t index = 0;
  // Requests still waiting (on an actor or the CPU pool), checked against
  // their deadline while any are left.
  std::vector<std::weak_ptr<exchange>> waiting;
  bool checking_deadlines = false;

  soci::session& db();
  // Handles `call`; whatever the fair queue hands this worker next goes
  // through the mailbox, behind the actor replies that arrived meanwhile.
  void serve(request_worker_actor::pointer self, http_call& call);
  void handle(request_worker_actor::pointer self, http_call& call);
  // Watches `ex` until it is answered or its deadline passes.
  void watch(request_worker_actor::pointer self, const exchange_ptr& ex);
  // Answers 503 every watched request past its deadline (its outcome, when
  // it arrives, is still stored for its Idempotency-Key).
  void check_deadlines(request_worker_actor::pointer self);
  // False when the request was answered with an authentication error.
  bool authenticate(const exchange_ptr& ex, const handler& route);
  // A signed-in member's request, by its session cookie: a state-changing
  // one also by its Origin and CSRF token.
  // A member's or a client user's session cookie (its kind is the
  // request's).
  bool authenticate_session(const exchange_ptr& ex, const handler& route);
  // False when the request was answered 403: its key lacks the route's
  // permission, or does not reach the campaign in its path.
  bool authorize(const exchange_ptr& ex, const router::route& route);
  // A client user: its client's campaigns at its level, nothing while a
  // payment is due (domain/client_access.hpp).
  bool authorize_client(const exchange_ptr& ex, const router::route& route);
  // The key's principal; with the route's campaign's leads version when it
  // asks for one (handler::versioned_campaign).
  std::optional<domain::principal> find_principal(const exchange_ptr& ex, const handler& route,
                                                  const std::string& key_hash);
  // Takes the request from its tenant's rate; false when it was answered
  // 429 instead.
  bool within_rate(const exchange_ptr& ex);
  // Claims the request's Idempotency-Key; false when it was answered
  // instead (the first response replayed, or the key refused).
  bool claim_idempotency_key(const exchange_ptr& ex);
};

// Spawn with caf::detached: handlers read from the database synchronously.
request_worker_actor::behavior_type
request_worker(request_worker_actor::stateful_pointer<request_worker_state> self,
               std::shared_ptr<const services> svc, std::string database_url,
               std::shared_ptr<fair_queue> queue, std::size_t index);

} // namespace vcs::http
