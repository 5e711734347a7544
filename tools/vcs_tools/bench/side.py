"""Side by side (--peer, --shared-peers, --ceiling): list_page1, list_deep
and bulk_add_10k against the service and every other implementation of the
lead endpoints, in interleaved rounds, and each one's medians and ratios."""

import os
import statistics
import subprocess
import tempfile

from vcs_tools import ROOT
from vcs_tools.bench.fixtures import fixture
from vcs_tools.bench.measure import BULK_SIDE, bulk_items, measure_bulk, measure_get
from vcs_tools.bench.peers import Ceiling, SharedPeers
from vcs_tools.log import bench_log as log
from vcs_tools.wrk import wrk

# Measured for the service and every peer, round after round, with --peer,
# --shared-peers or --ceiling.
SIDE_BY_SIDE = ("list_page1", "list_deep", "bulk_add_10k")


def setup_side_by_side(bench):
    """The service's list campaign, then the shared peers and the ceiling."""
    a = bench.args
    bench.impls = [bench.service(fixture(bench, "big"))] + list(a.peer or [])
    if not (a.shared_peers or a.ceiling is not None):
        return
    bench.scratch = tempfile.mkdtemp(prefix="vcs-bench-peers.")
    os.chmod(bench.scratch, 0o755)
    if a.shared_peers:
        source = os.path.normpath(os.path.join(ROOT, a.shared_peers))
        bench.shared = SharedPeers(source, bench.scratch, bench.deployment)
        bench.impls += bench.shared.start(a.leads)
        bench.skipped += bench.shared.skipped
    if a.ceiling is not None:
        source = os.path.normpath(os.path.join(ROOT, a.ceiling or os.path.join(
            a.shared_peers or os.path.join("..", "shared", "peers"), "ceiling", "server.cpp")))
        bench.ceiling = Ceiling(source, bench.scratch, bench.deployment)
        try:
            bench.impls.append(bench.ceiling.start())
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            log(f"skipping the ceiling: {e}")
            bench.skipped.append({"implementation": "ceiling", "reason": str(e)})
            bench.ceiling.stop()


def side_measure(bench, impl, scenario, round_no):
    """One implementation, one scenario, one round; a failure is recorded
    (rate None, one error) and the run goes on."""
    a = bench.args
    dep = bench.deployment if impl.kind == "service" else None
    if dep and dep.proc:
        dep.sample_rss()
    try:
        if scenario == "ceiling_db":
            result = measure_get(bench, impl, "/db")
        elif scenario in ("list_page1", "list_deep"):
            offset = 0 if scenario == "list_page1" else a.deep_offset
            result = measure_get(bench, impl, f"/api/v2/voice-campaigns/{impl.campaign}/leads/"
                                 f"list?limit=50&offset={offset}", impl.key)
            result["offset"] = offset
        else:
            result = measure_bulk(bench, impl, bulk_items(bench), 120)
    except (RuntimeError, OSError, ValueError, KeyError, subprocess.SubprocessError) as e:
        log(f"{impl.name} {scenario} round {round_no} failed: {e}")
        result = {"rate": None, "unit": None, "p50_ms": None, "p99_ms": None, "errors": 1,
                  "error": str(e)}
    finally:
        if dep and dep.proc:
            rss = dep.stop_sampling()
    if dep and dep.proc:
        result["rss_mb"] = rss
    result.update({"implementation": impl.name, "round": round_no, "scenario": scenario})
    bench.side_runs.append(result)
    if result["rate"] is not None:
        log(f"round {round_no} {impl.name} {scenario}: {result['rate']:.0f} {result['unit']}")


def run_side_by_side(bench, scenarios):
    """Rounds of: the service, each peer, the ceiling (each with all its
    scenarios, in turn first); bulk_add_10k grows every list campaign by
    as much each round, so all are measured on campaigns of the same
    size."""
    a = bench.args
    names = ", ".join(i.name for i in bench.impls)
    log(f"side by side, {a.rounds} rounds of {', '.join(scenarios)}: {names}")
    if a.warmup:
        for impl in bench.impls:
            path = "/db" if impl.kind == "ceiling" else \
                f"/api/v2/voice-campaigns/{impl.campaign}/leads/list?limit=50&offset=0"
            try:
                wrk(impl.url, "get.lua", [path, impl.key or ""], a.warmup, a.connections,
                    bench.wrk_threads)
            except (RuntimeError, subprocess.SubprocessError) as e:
                log(f"warm-up of {impl.name} failed: {e}")
    # Each round starts with another implementation, so none always
    # follows the same one.
    for round_no in range(1, a.rounds + 1):
        shift = (round_no - 1) % len(bench.impls)
        for impl in bench.impls[shift:] + bench.impls[:shift]:
            for scenario in ["ceiling_db"] if impl.kind == "ceiling" else scenarios:
                side_measure(bench, impl, scenario, round_no)
    summarize_side_by_side(bench, scenarios)


def summarize_side_by_side(bench, scenarios):
    """Medians over the rounds, ratios to the service and the ceiling;
    the service's medians also become its rows in results."""
    rows = {}
    for scenario in scenarios + ["ceiling_db"]:
        for impl in bench.impls:
            runs = [r for r in bench.side_runs
                    if r["implementation"] == impl.name and r["scenario"] == scenario]
            if not runs:
                continue
            med = lambda key: median_of(r.get(key) for r in runs)
            unit = next((r["unit"] for r in runs if r["unit"]), None)
            row = {"implementation": impl.name, "kind": impl.kind, "scenario": scenario,
                   "rate": med("rate"), "unit": unit, "rounds": [r["rate"] for r in runs],
                   "p50_ms": med("p50_ms"), "p99_ms": med("p99_ms"),
                   "errors": sum(r["errors"] for r in runs)}
            for key in ("statements_per_request", "cpu_ms_per_request", "cpu_us_per_lead",
                        "accepted_ms", "until_listed_ms"):
                if any(key in r for r in runs):
                    row[key] = med(key)
            rows[(impl.name, scenario)] = row
            bench.side_summary.append(row)
    ceiling = next((r for r in bench.side_summary if r["kind"] == "ceiling"), None)
    for row in bench.side_summary:
        service = rows.get(("service", row["scenario"]))
        row["vs_service"] = row["rate"] / service["rate"] \
            if service and service["rate"] and row["rate"] is not None else None
        row["vs_ceiling"] = row["rate"] / ceiling["rate"] \
            if ceiling and ceiling["rate"] and row["rate"] is not None \
            and row["unit"] == "req/s" else None
        if row["implementation"] == "service":
            extra = {"rss_mb": max((r.get("rss_mb") or 0 for r in bench.side_runs
                                    if r["implementation"] == "service"
                                    and r["scenario"] == row["scenario"]), default=0) or None}
            if row["scenario"] == "list_deep":
                extra["offset"] = bench.args.deep_offset
            if row["scenario"] == "bulk_add_10k":
                extra["leads"] = BULK_SIDE
            bench.results.append({k: v for k, v in row.items()
                                  if k not in ("implementation", "kind")} | extra)


def median_of(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None
