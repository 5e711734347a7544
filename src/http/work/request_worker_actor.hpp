#pragma once

#include "actors/atoms.hpp"
#include "http/server/http_call.hpp"

#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>
#include <caf/typed_event_based_actor.hpp>

namespace vcs::http {

using actors::deadline_atom;
using actors::resume_atom;

// A detached front worker: routes a request and answers it.
using request_worker_actor = caf::typed_actor<
    // Handles one HTTP request; the answer goes back through its reply sink.
    caf::reacts_to<http_call>,
    // Timer: answers the requests still waiting past their deadline.
    caf::reacts_to<deadline_atom>,
    // Runs the rest of a request whose CPU-heavy step ran on the CPU pool.
    caf::reacts_to<resume_atom, worker_task>>;

} // namespace vcs::http
