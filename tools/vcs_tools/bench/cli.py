"""Runs benchmark scenarios and prints one table (and writes JSON).

Without --target it builds the service (Release), starts a private
PostgreSQL cluster and the service on loopback, provisions a tenant and data
through the operator and public APIs, runs each scenario with wrk, and stops
everything it started. With --target it runs against an existing deployment
(scenarios that restart the service are skipped), with small data by default
(10,000 leads). With --target and --key it needs nothing but a tenant API
key: it creates its own campaigns (and a client) through the public API and,
at the end, removes every lead it added and ENDs every campaign it created;
with --operator-url and --token instead it provisions a tenant of its own and
deactivates it at the end.

Side by side: with --peer, --shared-peers or --ceiling, list_page1, list_deep
and bulk_add_10k run against the service and every other implementation of
the lead endpoints in --rounds interleaved rounds, and a second table prints
each one's median and its ratios to the service and to the ceiling.

Open loop: with --rate N each wrk scenario runs at a fixed arrival rate
(wrk paced by wrk/common.lua, latency counted from each request's due time);
--rates N1,N2,... runs a step test and reports the highest rate meeting
--slo; --soak runs each in --window windows and reports the drift.

Usage: benchmarks/run [scenario ...] [--target URL (--key KEY [--tenant-id ID] |
                                                   --operator-url URL --token T)]
                      [--duration S] [--connections N] [--quick] [--json FILE]
                      [--rate N | --rates N1,N2,... [--slo pNN=Mms]] [--soak [--window S]]
                      [--mix kind=weight,...|@FILE.json]
                      [--binary PATH] [--wrk-threads N]
                      [--peer NAME=URL,KEY,CAMPAIGN ...] [--shared-peers DIR]
                      [--ceiling [SERVER_CPP]] [--rounds N] [--warmup S]
                      [--deep-offset N]
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

from vcs_tools import ROOT
from vcs_tools.bench import scale, tables
from vcs_tools.bench.core import Bench, bench_side
from vcs_tools.bench.load import MIX_KINDS
from vcs_tools.bench.measure import BULK_SIDE
from vcs_tools.bench.peers import parse_peer
from vcs_tools.bench.scenarios import NAMED_ONLY, SCENARIOS
from vcs_tools.bench.side import SIDE_BY_SIDE
from vcs_tools.log import bench_log as log
from vcs_tools.metadata import local_service, run_metadata, timestamp
from vcs_tools.wrk import LATENCY_POINTS


def parse_mix(text):
    """--mix v1_update=60,list=15,...: the mixed profile's weights. Kinds left
    out weigh 0; a file name (@profile.json) holds the same as JSON."""
    if text.startswith("@"):
        with open(text[1:]) as f:
            weights = json.load(f)
    else:
        weights = {}
        for part in text.split(","):
            kind, _, value = part.partition("=")
            if not value.isdigit():
                raise argparse.ArgumentTypeError(f"expected kind=weight, got {part!r}")
            weights[kind.strip()] = int(value)
    unknown = set(weights) - set(MIX_KINDS)
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown kinds {', '.join(sorted(unknown))}; kinds: {', '.join(MIX_KINDS)}")
    mix = {k: int(weights.get(k, 0)) for k in MIX_KINDS}
    if sum(mix.values()) <= 0 or min(mix.values()) < 0:
        raise argparse.ArgumentTypeError("weights must be whole numbers, not all 0")
    return mix


def parse_duration(text):
    """Seconds from 45, 45s, 30m or 2h."""
    m = re.fullmatch(r"(\d+)([smh]?)", text.strip())
    if not m or int(m.group(1)) <= 0:
        raise argparse.ArgumentTypeError("expected a positive duration such as 90, 90s, 30m or 2h")
    return int(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def parse_slo(text):
    """--slo p99=50ms: (percentile, milliseconds), of the percentiles the
    results report."""
    m = re.fullmatch(r"p(\d+(?:\.\d+)?)=(\d+(?:\.\d+)?)ms", text)
    if not m or m.group(1) not in LATENCY_POINTS:
        raise argparse.ArgumentTypeError(
            "expected pNN=Mms with NN one of " + ", ".join(LATENCY_POINTS) + ", e.g. p99=50ms")
    return m.group(1), float(m.group(2))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("scenarios", nargs="*", help="scenarios to run (default: all): " +
                   ", ".join(SCENARIOS))
    p.add_argument("--target", help="public URL of an existing deployment")
    p.add_argument("--operator-url", help="operator URL of that deployment")
    p.add_argument("--token", help="its operator token")
    p.add_argument("--key", help="with --target: a tenant API key; the run creates its own data "
                                 "through the public API and removes it at the end")
    p.add_argument("--tenant-id", help="with --key: the key's tenant id, which the v1 updates of "
                                       "update_batched and mixed name (skipped without it)")
    p.add_argument("--duration", type=parse_duration, default=10,
                   help="time per scenario: seconds, or with a unit (90s, 30m, 2h)")
    p.add_argument("--soak", action="store_true",
                   help="run each wrk scenario in --window windows (open loop with --rate) and "
                        "report the drift of its rate, p99 and the service's RSS (e.g. --soak "
                        "--duration 30m)")
    p.add_argument("--window", type=parse_duration, default=60,
                   help="soak window (default 60 s)")
    p.add_argument("--rate", type=int, help="open loop: each wrk scenario at this many requests "
                                            "a second, latency counted from each send's due time")
    p.add_argument("--rates", type=lambda t: [int(x) for x in t.split(",")],
                   help="step test: each wrk scenario at each of these rates (e.g. "
                        "500,1000,2000); reports the highest meeting --slo")
    p.add_argument("--mix", type=parse_mix,
                   default=parse_mix("v1_update=60,list=15,campaign_read=10,add_lead=10,"
                                     "client_detail=5"),
                   help="the mixed profile's weights, as kind=weight,... or @FILE.json "
                        "(kinds: " + ", ".join(MIX_KINDS) + "; default 60,15,10,10,5)")
    p.add_argument("--slo", type=parse_slo, default=("99", 50.0),
                   help="the step test's objective (default p99=50ms)")
    p.add_argument("--connections", type=int, default=64)
    p.add_argument("--leads", type=int,
                   help="leads in the list campaign (default 1,000,000; 10,000 with --target)")
    p.add_argument("--bulk", type=int,
                   help="leads in the bulk-add scenario (default 100,000; 10,000 with --target)")
    p.add_argument("--hot-leads", type=int,
                   help="leads in the update campaign (default 10,000; 1,000 with --target)")
    p.add_argument("--payment-clients", type=int, default=32,
                   help="subscriptions whose payment requests payment_patch updates")
    p.add_argument("--actors", type=int, default=10_000, help="campaign actors in actors_10k")
    p.add_argument("--dial-campaigns", type=int, default=1000,
                   help="ACTIVE campaigns in dialer_1000")
    p.add_argument("--binary", help="use this service binary instead of building Release")
    p.add_argument("--wrk-threads", type=int,
                   help="wrk threads (default 2; 1 with peers or the ceiling, as the issue's runs)")
    p.add_argument("--deep-offset", type=int,
                   help="list_deep's offset (default: half of --leads)")
    p.add_argument("--peer", action="append", type=parse_peer, metavar="NAME=URL,KEY,CAMPAIGN",
                   help="another implementation of the lead endpoints, measured side by side "
                        "(repeatable)")
    p.add_argument("--shared-peers", metavar="DIR",
                   help="seed, start and measure the shared peers in DIR (relative to the repo, "
                        "e.g. ../shared/peers) on this run's PostgreSQL")
    p.add_argument("--ceiling", nargs="?", const="", metavar="SERVER_CPP",
                   help="compile and measure the ceiling server (GET /db); default source "
                        "<shared peers>/ceiling/server.cpp")
    p.add_argument("--rounds", type=int, default=3,
                   help="side by side: interleaved rounds, medians reported (default 3)")
    p.add_argument("--warmup", type=int, default=3,
                   help="side by side: seconds of list_page1 (or GET /db) per implementation "
                        "before the first round (0: none)")
    p.add_argument("--scale-sizes", type=lambda t: sorted(int(x) for x in t.split(",")),
                   default=[10_000, 1_000_000],
                   help="scale: leads in the tenant's campaign at each size (default "
                        "10000,1000000; the other tables grow with it)")
    p.add_argument("--scale-requests", type=int, default=200,
                   help="scale: requests per route and size (default 200)")
    p.add_argument("--fail-on-growth", action="store_true",
                   help="scale: exit 1 when a route runs more statements per request at the "
                        "largest size than at the smallest (CI)")
    p.add_argument("--fail-on-errors", action="store_true",
                   help="exit 1 when any scenario saw an error response (CI smoke run)")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: 2 s per scenario, small data (CI)")
    p.add_argument("--json", help="write results here (default benchmarks/results/<time>.json)")
    args = p.parse_args()
    if args.quick:
        args.duration, args.leads, args.bulk, args.hot_leads = 2, 20_000, 10_000, 1_000
        args.payment_clients, args.actors, args.dial_campaigns = 4, 200, 50
        args.scale_sizes, args.scale_requests = [1_000, 20_000], 40
    # A deployment someone else runs gets small data unless asked otherwise.
    small = bool(args.target)
    for name, big, little in (("leads", 1_000_000, 10_000), ("bulk", 100_000, 10_000),
                              ("hot_leads", 10_000, 1_000)):
        if getattr(args, name) is None:
            setattr(args, name, little if small else big)
    if args.target and not (args.key or (args.operator_url and args.token)):
        p.error("--target needs --key (a tenant API key) or --operator-url and --token")
    if (args.key or args.tenant_id) and not args.target:
        p.error("--key and --tenant-id go with --target")
    if args.target and (args.shared_peers or args.ceiling is not None):
        p.error("--shared-peers and --ceiling use this run's own PostgreSQL (not with --target)")
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    if args.deep_offset is None:
        args.deep_offset = args.leads // 2
    unknown = set(args.scenarios) - set(SCENARIOS)
    if unknown:
        p.error(f"unknown scenarios: {', '.join(sorted(unknown))}")
    if not shutil.which("wrk"):
        p.error("wrk is not installed (scripts/bootstrap bench installs it)")
    if args.rate and args.rates:
        p.error("--rate or --rates, not both")
    if args.rates and args.soak:
        p.error("--soak runs at one --rate (or closed loop), not a step test")
    if any(r <= 0 for r in (args.rates or [args.rate or 1])):
        p.error("rates must be positive")
    if (args.rate or args.rates) and bench_side(args):
        p.error("--rate and --rates measure the service alone (not side by side)")
    return args


def run(args):
    """Sets up, runs the scenarios, tears down; prints the tables, writes
    the JSON (and the HTML report beside it) and exits 1 on what --fail-on-*
    asks to."""
    started = timestamp()
    bench = Bench(args)
    # SIGTERM unwinds like Ctrl-C, so everything started is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        bench.setup()
        default = list(SIDE_BY_SIDE) if bench.side_by_side else \
            [s for s in SCENARIOS if s not in NAMED_ONLY]
        bench.run_all(args.scenarios or default)
        if bench.deployment:
            bench.results.append({"scenario": "startup", "rate": bench.deployment.startup_ms,
                                  "unit": "ms to healthy", "p50_ms": None, "p99_ms": None,
                                  "errors": 0})
            bench.results.append({"scenario": "idle_rss", "rate": bench.idle_rss,
                                  "unit": "MB RSS at start", "p50_ms": None, "p99_ms": None,
                                  "errors": 0})
        bench.add_ratios()
    finally:
        try:
            bench.metadata = bench_metadata(args, bench, started)
        except (OSError, subprocess.SubprocessError) as e:
            bench.metadata = {"started": started, "error": str(e)}
        try:
            bench.teardown()
        finally:
            if bench.deployment:
                bench.deployment.stop()
    tables.table(bench)
    tables.side_table(bench)
    tables.scale_table(bench)
    path = args.json or os.path.join(ROOT, "benchmarks", "results",
                                     time.strftime("%Y%m%dT%H%M%S") + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        doc = {"run": bench.metadata, "results": bench.results}
        if bench.scale_rows:
            doc["scale"] = {"sizes": args.scale_sizes, "requests": args.scale_requests,
                            "rows": bench.scale_rows}
        if bench.side_by_side:
            doc["side_by_side"] = {
                "rounds": args.rounds, "duration_s": args.duration,
                "connections": args.connections, "wrk_threads": bench.wrk_threads,
                "leads": args.leads, "deep_offset": args.deep_offset, "bulk_leads": BULK_SIDE,
                "implementations": [i.describe() for i in bench.impls],
                "skipped": bench.skipped, "runs": bench.side_runs,
                "summary": bench.side_summary}
        json.dump(doc, f, indent=2)
    log(f"results written to {path}")
    # The HTML report beside it (benchmarks/report), when gnuplot is here.
    if shutil.which("gnuplot"):
        subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "report"), path],
                       check=False)
    failed = [r["scenario"] for r in bench.results if r.get("errors")] + \
        [f"{r['implementation']} {r['scenario']}" for r in bench.side_summary
         if r["errors"] and r["implementation"] != "service"]
    if args.fail_on_errors and failed:
        log(f"errors in: {', '.join(failed)}")
        sys.exit(1)
    grown = scale.grown(bench.scale_rows)
    if args.fail_on_growth and grown:
        log(f"statements per request grew with size in: {', '.join(grown)}")
        sys.exit(1)


def bench_metadata(args, bench, started):
    """What was measured: the service (commit and build for a local binary),
    the settings that change the figures, the machine and PostgreSQL."""
    d = bench.deployment
    service = {"target": args.target} if args.target else local_service(d.binary if d else None)
    return run_metadata(started, service, d, {
        "duration_s": args.duration, "connections": args.connections,
        "wrk_threads": bench.wrk_threads, "leads": args.leads, "bulk": args.bulk,
        "hot_leads": args.hot_leads, "tenant_rate_limit": None if args.target else 100_000,
        "quick": args.quick})


def main():
    try:
        run(parse_args())
    except KeyboardInterrupt:
        log("interrupted (everything this run started has been stopped)")
        sys.exit(130)
