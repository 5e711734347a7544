#pragma once

// The service's components, each built from the settings in one short
// function; main only starts them in order and stops them in reverse.

#include "actors/actors.hpp"
#include "actors/db_pool.hpp"
#include "actors/entity_config.hpp"
#include "actors/voice_gateway.hpp"
#include "app/config.hpp"
#include "domain/request_deadlines.hpp"
#include "domain/secret_box.hpp"
#include "http/server/server.hpp"
#include "http/work/fair_queue.hpp"
#include "http/work/front_pool.hpp"
#include "http/work/handler.hpp"
#include "http/work/readiness.hpp"
#include "outbound/outbound_client.hpp"

#include <caf/fwd.hpp>

#include <atomic>
#include <memory>
#include <string>

namespace vcs::app {

// Applies the settings to the CAF scheduler.
void configure_actor_system(caf::actor_system_config& cfg, const config& c);

// The provider that places calls: simulated, or provider_a when voice-mode
// is live.
std::shared_ptr<actors::voice_gateway>
call_gateway(const config& c, outbound::outbound_client& outbound,
             std::shared_ptr<const domain::secret_box> secrets);

// What every entity actor of this node shares.
actors::entity_config_ptr entity_settings(const config& c,
                                          std::shared_ptr<const actors::db_pool> pool,
                                          std::shared_ptr<actors::voice_gateway> gateway);

// The actors below HTTP: database workers, the entity registry, the
// schedulers and the health probe.
struct node_actors {
  std::shared_ptr<actors::db_pool> pool;
  actors::registry_actor registry;
  actors::import_sweeper_actor sweeper;
  actors::maintenance_actor maintenance;
  // The billing scheduler's own session, outside the pool: it holds the
  // sweep's advisory lock.
  actors::db_worker_actor lock_worker;
  actors::billing_scheduler_actor billing;
  actors::dial_scheduler_actor dialer;
  actors::webhook_dispatcher_actor webhooks;
  actors::health_probe_actor probe;
  std::shared_ptr<std::atomic<bool>> database_up;
  // What this node's claims on shared work (imports) carry.
  std::string node_id;

  // Stops the schedulers first, then the registry and the database workers.
  void stop();
};

// Once a node's actors have ended: the unfinished imports and dial passes
// it claimed are released, so other nodes continue them at their next
// sweep or round instead of waiting until the claims go stale
// (import-stale-seconds, dial-lease-seconds). Logs and gives up when the
// database does not answer: the claims then go stale as before.
void hand_on_work(const std::string& session_url, const std::string& node_id);

// `session_url` carries the sessions' time limits (storage::with_session_limits).
node_actors start_node_actors(caf::actor_system& sys, const config& c,
                              const std::string& session_url, outbound::outbound_client& outbound,
                              std::shared_ptr<const domain::secret_box> secrets);

// What request handlers reach: the node's actors and the node-wide limits.
std::shared_ptr<http::services> request_services(const config& c, const node_actors& node,
                                                 std::shared_ptr<const domain::secret_box> secrets,
                                                 const outbound::outbound_client& outbound,
                                                 const std::string& session_url);

// Each listener's share of its request workers among its clients.
http::fair_queue_settings public_share(const config& c);
http::fair_queue_settings operator_share(const config& c);

// Whether this node should get traffic: the database answers, and neither
// the public workers nor the database workers stay saturated.
std::shared_ptr<http::readiness> readiness(const config& c, const node_actors& node,
                                           const http::front_pool& public_front);

// The listeners' settings, their inline health answers included.
http::server_options server_settings(const config& c, const node_actors& node,
                                     const http::services& svc);

} // namespace vcs::app
