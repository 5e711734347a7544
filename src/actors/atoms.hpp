#pragma once

// The atoms that name actor messages.

#include <caf/atom.hpp>

namespace vcs::actors {

using create_atom = caf::atom_constant<caf::atom("create")>;
using update_atom = caf::atom_constant<caf::atom("update")>;
using delete_atom = caf::atom_constant<caf::atom("delete")>;
using tenant_atom = caf::atom_constant<caf::atom("tenant")>;
using retire_atom = caf::atom_constant<caf::atom("retire")>;
using idle_atom = caf::atom_constant<caf::atom("idle")>;
using campaign_atom = caf::atom_constant<caf::atom("campaign")>;
using status_atom = caf::atom_constant<caf::atom("status")>;
using import_atom = caf::atom_constant<caf::atom("import")>;
using tick_atom = caf::atom_constant<caf::atom("tick")>;
using subscr_atom = caf::atom_constant<caf::atom("subscr")>;
using sweep_atom = caf::atom_constant<caf::atom("sweep")>;
using usage_atom = caf::atom_constant<caf::atom("usage")>;
using addon_atom = caf::atom_constant<caf::atom("addon")>;
using dial_atom = caf::atom_constant<caf::atom("dial")>;
using call_atom = caf::atom_constant<caf::atom("call")>;
using deliver_atom = caf::atom_constant<caf::atom("deliver")>;
using deadline_atom = caf::atom_constant<caf::atom("deadline")>;
using resume_atom = caf::atom_constant<caf::atom("resume")>;
using done_atom = caf::atom_constant<caf::atom("done")>;
using fold_atom = caf::atom_constant<caf::atom("fold")>;
using purge_atom = caf::atom_constant<caf::atom("purge")>;
using inquire_atom = caf::atom_constant<caf::atom("inquire")>;
using inquired_atom = caf::atom_constant<caf::atom("inquired")>;

} // namespace vcs::actors
