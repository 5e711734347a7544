"""Fault and attack drills against a private deployment; prints a table and,
with --json, writes when and how they ran and each drill's figures (from
which benchmarks/pages.py makes docs/reliability.md).

It starts a private PostgreSQL cluster and the Release service (or --binary),
provisions a tenant with a campaign and leads, and runs each drill while a
probe, connecting from another loopback address (127.0.0.2), reads a campaign
through the public API and /healthz through the operator API every 50 ms. A
drill passes when the probe kept being answered, the service process is
alive, and nothing acknowledged was lost.

Usage: scripts/reliability [drill ...] [--binary PATH] [--duration S] [--json FILE] [--ci]
                          [--drain-delay-ms MS] [--kills N]
Drills: slowloris slow_body malformed_flood overload database_outage database_crash sqlmap
        neighbour value_bomb slow_dns header_spelling_flood taken_email_flood
        sign_in_burst stream_slots rolling_restart failover switchover retention_soak restore
        failure_breaker
--ci: pass/fail on errors only, never on timings (the short run in scripts/test).
neighbour and the four after it run a victim tenant's paced mix alone, while another
tenant attacks and after; slow_dns needs root (port 53, /etc/resolv.conf) and is
skipped without it. sign_in_burst and stream_slots send from loopback addresses of their
own (127.0.0.3, 127.0.0.4, 127.0.1.1-40), the sign-in throttle counting by address;
stream_slots restarts the service with VCS_EVENT_STREAM_LIFETIME_MS=3000 for its last part.
restore writes for --duration seconds (at least 5) before its backup
and a third of that (at least 3) after it, before its target time.
Needs slowhttptest, sqlmap and wrk, and pgbackrest for restore (scripts/bootstrap drills installs them).
"""

import argparse
import json
import shutil
import sys

from vcs_tools.drills import (connections, database, failure_breaker, neighbour,
                              primary_changes, restore, retention_soak, rolling_restart, sessions,
                              slow_dns, sqlmap)
from vcs_tools.drills.context import Drills
from vcs_tools.log import drill_log as log
from vcs_tools.metadata import timestamp

# Every drill, by name, in the order a run takes them: a function(drills).
DRILLS = {
    "slowloris": connections.slowloris,
    "slow_body": connections.slow_body,
    "malformed_flood": connections.malformed_flood,
    "overload": connections.overload,
    "database_outage": database.database_outage,
    "database_crash": database.database_crash,
    "sqlmap": sqlmap.sqlmap,
    "neighbour": neighbour.neighbour,
    "value_bomb": neighbour.value_bomb,
    "slow_dns": slow_dns.slow_dns,
    "header_spelling_flood": neighbour.header_spelling_flood,
    "taken_email_flood": neighbour.taken_email_flood,
    "sign_in_burst": sessions.sign_in_burst,
    "stream_slots": sessions.stream_slots,
    "rolling_restart": rolling_restart.rolling_restart,
    "failover": primary_changes.failover,
    "switchover": primary_changes.switchover,
    "retention_soak": retention_soak.retention_soak,
    "restore": restore.restore,
    "failure_breaker": failure_breaker.failure_breaker,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("drills", nargs="*", default=list(DRILLS))
    parser.add_argument("--binary")
    parser.add_argument("--duration", type=int, default=30)
    parser.add_argument("--json")
    parser.add_argument("--ci", action="store_true")
    parser.add_argument("--drain-delay-ms", type=int, default=5000,
                        help="rolling_restart: the nodes' drain-delay-ms (0 shows what it "
                             "prevents)")
    parser.add_argument("--soak-seconds", type=int, default=300,
                        help="retention_soak: how long the load runs (at least 180)")
    parser.add_argument("--kills", type=int, default=3,
                        help="failover, switchover: times the primary is lost or moved "
                             "(--ci: once)")
    args = parser.parse_args()
    for name in args.drills:
        if name not in DRILLS:
            parser.error(f"unknown drill {name}; drills: {' '.join(DRILLS)}")
    for tool in ("slowhttptest", "sqlmap", "wrk") + (("pgbackrest",) if "restore" in args.drills
                                                     else ()):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: run scripts/bootstrap drills")
    drills = Drills(args)
    started = timestamp()
    try:
        drills.setup()
        for name in args.drills:
            log(f"drill {name}")
            drills.current = name
            DRILLS[name](drills)
        run = drills.metadata(started)
    finally:
        drills.dep.stop()
    print(drills.table())
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"run": run, "results": drills.results}, f, indent=2)
    sys.exit(0 if all(r["passed"] or r["passed"] is None for r in drills.results) else 1)
