#pragma once

#include "actors/actors.hpp"
#include "http/render/error_mapping.hpp"
#include "http/work/cpu_pool.hpp"
#include "http/work/fair_queue.hpp"
#include "http/work/handler.hpp"
#include "http/work/request_worker_actor.hpp"
#include "storage/storage_error.hpp"

#include <caf/send.hpp>

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace vcs::http {

// Runs `step()` on the CPU pool (429 when the client already has its most
// steps there), then `next(ctx, result)` back on the request
// worker that called this: the worker does not wait, so it serves other
// requests meanwhile and the actor replies they wait for are not held up
// behind a second of password hashing. A step whose request is past its
// deadline when its turn comes is not run, and such a request does not go
// on: it is settled as not done (503), so its Idempotency-Key is free again.
template <class Step, class Next>
void on_cpu_pool(const exchange_ptr& ex, const worker_context& ctx, Step step, Next next) {
  using result = std::invoke_result_t<Step&>;
  auto worker = caf::actor_cast<request_worker_actor>(ctx.self);
  // One share per tenant, however many keys it sends with.
  const auto client =
      ex->principal ? tenant_client_key(ex->principal->tenant_id) : ex->request.share;
  auto queued =
      ex->svc.cpu->post(client, [ex, ctx = worker_context{ctx}, worker, step = std::move(step),
                                 next = std::move(next)]() mutable {
        auto out = std::make_shared<std::optional<result>>();
        std::exception_ptr failure;
        // `due` is fixed before the handler runs, so reading it here is safe.
        const bool in_time = std::chrono::steady_clock::now() < ex->due;
        if (in_time) {
          try {
            out->emplace(step());
          } catch (...) {
            failure = std::current_exception();
          }
        }
        auto rest = [ex, ctx, out, failure, in_time, next = std::move(next)]() mutable {
          if (!in_time || ex->answered())
            return ex->fail(domain::service_unavailable());
          try {
            if (failure)
              std::rethrow_exception(failure);
            next(ctx, **out);
          } catch (const std::exception& e) {
            ex->fail(storage::translate(e));
          }
        };
        caf::anon_send(worker, actors::resume_atom::value, worker_task{std::move(rest)});
      });
  if (!queued)
    ex->respond(too_many_in_flight_response());
}

} // namespace vcs::http
