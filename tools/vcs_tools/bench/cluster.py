"""benchmarks/run's scenarios that start or restart the service: many
campaign actors, the dialer placing calls, and one to three nodes behind
HAProxy. They need the run's own deployment."""

import datetime
import os
import shutil
import statistics
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

from vcs_tools.api import Api, load_leads, new_provider, phones, wait_total
from vcs_tools.bench.fixtures import fixture
from vcs_tools.bench.load import bench_wrk, per_unit
from vcs_tools.deployment import free_port, stop_process, tree_cpu_seconds, wait_http
from vcs_tools.log import bench_log as log


def actors_10k(bench, scenario, d, c):
    if not bench.deployment:
        return log("skipping actors_10k (reads the service's memory)")
    n = bench.args.actors
    log(f"creating {n} campaigns and waking an actor for each")
    ids = [bench.campaign(f"bench-actor-{i}") for i in range(n)]
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(lambda cid: bench.api.ok("PATCH", f"/api/v2/voice-campaigns/{cid}",
                                               {"name": "awake"}), ids))
    rss = bench.deployment.rss_mb()
    return bench.record(scenario, {"rate": rss, "unit": f"MB RSS, {n} actors",
                                   "p50_ms": None, "p99_ms": None, "errors": 0},
                        actors=n)


def dialer_1000(bench, scenario, d, c):
    if not bench.deployment:
        return log("skipping dialer_1000 (restarts the service with fast simulated calls)")
    return run_dialer(bench)


def dial_rules(bench, scenario, d, c):
    if not bench.deployment:
        return log("skipping dial_rules (restarts the service and reads its database's counters)")
    return run_dial_rules(bench, scenario)


# Dial rounds of the calling rules' benchmark: the instant of round k, when
# it is 10:00 in San Francisco (in every rule's hours), one minute apart.
RULES_START = datetime.datetime(2030, 1, 2, 18, 0, tzinfo=datetime.timezone.utc)


def run_dial_rules(bench, scenario):
    """Database time and statements per call placed of a dial round on
    demand, with the calling rules applied (a TELEMARKETING tenant: the
    hours, and Florida's cap, which governs a US number placed in no state,
    so each pass locks and counts every candidate's number) beside none (a
    NONE tenant), the same campaign on each, rounds interleaved, medians.
    Calls stay ringing, so every round places a full batch."""
    a = bench.args
    # Calls stay ringing: rounds * batch stays within the provider's 1,000 lines.
    leads, rounds, batch = (400, 4, 20) if a.quick else (5_000, 10, 100)
    d = bench.deployment
    d.stop_service()
    d.start_service({"VCS_DIAL_INTERVAL_MS": "3600000", "VCS_SIMULATED_RING_MS": "3600000",
                     "VCS_DIAL_BATCH": str(batch), "VCS_WEBHOOK_INTERVAL_MS": "3600000"})
    try:
        sides = {}
        for purpose in ("NONE", "TELEMARKETING"):
            t = bench.op.ok("POST", "/admin/v1/tenants",
                            {"name": f"bench-rules-{purpose.lower()}", "plan": "ENTERPRISE"})
            bench.op.ok("PATCH", f"/admin/v1/tenants/{t['tenant_id']}",
                        {"calling_purpose": purpose})
            api = Api(bench.public, t["api_key"]["key"])
            provider = new_provider(api, "bench", 1000)
            cid = api.ok("POST", "/api/v2/voice-campaigns",
                         {"name": f"bench-rules-{purpose.lower()}",
                          "tenant_voice_provider_id": provider,
                          "start_date": "2030-01-01"})["data"]["campaign_id"]
            # 415-2xx numbers pass libphonenumber's validity check; no state
            # field, so every US state's rules are candidates.
            load_leads(api, cid, leads, "+1415",
                       items=lambda prefix, start, n: phones(prefix, 2_000_000 + start, n))
            sides[purpose] = {"api": api, "campaign": cid, "db_ms": [], "statements": []}
        count = "SELECT count(*) FROM calls WHERE campaign_id = (SELECT id FROM campaigns " \
                "WHERE name = '{}')"
        for k in range(rounds):
            for purpose, side in sides.items():
                api, cid = side["api"], side["campaign"]
                api.ok("PATCH", f"/api/v2/voice-campaigns/{cid}/status", {"status": "ACTIVE"})
                at = RULES_START + datetime.timedelta(minutes=2 * k + (purpose != "NONE"))
                before = int(d.psql("vcs", count.format(f"bench-rules-{purpose.lower()}")))
                ms, statements = d.statement_time_ms("vcs"), d.statements("vcs")
                bench.op.ok("POST", "/admin/v1/dialer/run",
                            {"now": at.strftime("%Y-%m-%dT%H:%M:%SZ")})
                ms, statements = d.statement_time_ms("vcs") - ms, d.statements("vcs") - statements
                placed = int(d.psql("vcs", count.format(f"bench-rules-{purpose.lower()}"))) - before
                api.ok("PATCH", f"/api/v2/voice-campaigns/{cid}/status", {"status": "PAUSED"})
                if placed:
                    side["db_ms"].append(ms / placed)
                    side["statements"].append(statements / placed)
                log(f"{scenario} {purpose} round {k}: {placed} calls, {ms:.1f} ms, "
                    f"{statements} statements")
        off, on = sides["NONE"], sides["TELEMARKETING"]
        errors = int(len(off["db_ms"]) < rounds or len(on["db_ms"]) < rounds)
        median = lambda xs: round(statistics.median(xs), 4) if xs else None  # noqa: E731
        result = {"rate": median(on["db_ms"]) / median(off["db_ms"])
                  if on["db_ms"] and off["db_ms"] else 0,
                  "unit": "x: database time per call, rules on / off",
                  "p50_ms": None, "p99_ms": None, "errors": errors}
        return bench.record(scenario, result, leads=leads, rounds=rounds, batch=batch,
                            db_ms_per_call_off=median(off["db_ms"]),
                            db_ms_per_call_on=median(on["db_ms"]),
                            statements_per_call_off=median(off["statements"]),
                            statements_per_call_on=median(on["statements"]))
    finally:
        d.stop_service()
        d.start_service()


def nodes_1_2_3(bench, scenario, d, c):
    if not bench.deployment:
        return log("skipping nodes_1_2_3 (starts nodes of its own)")
    if not shutil.which("haproxy"):
        return log("skipping nodes_1_2_3 (haproxy is not installed)")
    return run_nodes(bench, d, c)


def run_dialer(bench):
    """Calls placed per second with N ACTIVE campaigns on the simulated
    provider: ten provider configurations (limit 1000 each), N/10
    campaigns on each, 5 leads per campaign, calls of 100 ms."""
    a = bench.args
    n = a.dial_campaigns
    bench.deployment.stop_service()
    bench.deployment.start_service({"VCS_SIMULATED_RING_MS": "20", "VCS_SIMULATED_CALL_MS": "100",
                                    "VCS_SIMULATED_OUTCOMES": "human:1",
                                    "VCS_DIAL_INTERVAL_MS": "100"})
    try:
        providers = [new_provider(bench.api, "bench", 1000) for _ in range(10)]
        log(f"creating {n} campaigns with 5 leads each")

        def make(i):
            cid = bench.api.ok("POST", "/api/v2/voice-campaigns",
                               {"name": f"bench-dial-{i}",
                                "tenant_voice_provider_id": providers[i % 10]}
                               )["data"]["campaign_id"]
            # 555-1xxx numbers pass libphonenumber's validity check.
            bench.api.ok("POST", f"/api/v2/voice-campaigns/{cid}/leads/bulk",
                         [{"phone_number": f"+1415555{1000 + (5 * i + j) % 9000:04d}"}
                          for j in range(5)])
            return cid
        with ThreadPoolExecutor(16) as pool:
            ids = list(pool.map(make, range(n)))
        for cid in ids:
            wait_total(bench.api, cid, 5, timeout=120)
        count = ("SELECT count(*) FROM calls WHERE campaign_id IN (SELECT id FROM campaigns "
                 "WHERE name LIKE 'bench-dial-%')")
        before = int(bench.deployment.psql("vcs", count))
        cpu = bench.deployment.cpu_seconds()
        started = time.monotonic()
        with ThreadPoolExecutor(16) as pool:
            list(pool.map(lambda cid: bench.api.ok("PATCH", f"/api/v2/voice-campaigns/{cid}/status",
                                                   {"status": "ACTIVE"}), ids))
        target = before + 5 * n
        placed = before
        deadline = time.monotonic() + 600
        while placed < target and time.monotonic() < deadline:
            time.sleep(0.2)
            placed = int(bench.deployment.psql("vcs", count))
        elapsed = time.monotonic() - started
        calls = placed - before
        return bench.record("dialer_1000", {"rate": calls / elapsed, "unit": "calls placed/s",
                                            "p50_ms": None, "p99_ms": None,
                                            "errors": 0 if placed >= target else 1},
                            campaigns=n, calls=calls, seconds=elapsed,
                            cpu_ms_per_call=per_unit(cpu, bench.deployment.cpu_seconds(),
                                                     calls, 1000))
    finally:
        bench.deployment.stop_service()
        bench.deployment.start_service()


def run_nodes(bench, d, c):
    """The mixed profile through HAProxy over 1, 2 and 3 nodes."""
    dep = bench.deployment
    hot = fixture(bench, "hot")
    client = fixture(bench, "client")
    args = [hot, bench.api.token, bench.tenant_id, bench.args.hot_leads, "+1630", client]
    extra = []
    try:
        ports = [dep.public_port]
        for n in (1, 2, 3):
            while len(ports) < n:
                proc, port = dep.spawn_node()
                extra.append(proc)
                ports.append(port)
            lb_port = free_port()
            cfg = os.path.join(dep.pgdir, f"haproxy-{n}.cfg")
            with open(cfg, "w") as f:
                f.write("global\n  maxconn 4096\ndefaults\n  mode http\n"
                        "  timeout connect 5s\n  timeout client 60s\n"
                        "  timeout server 60s\n  option http-keep-alive\n"
                        f"frontend public\n  bind 127.0.0.1:{lb_port}\n"
                        "  default_backend nodes\nbackend nodes\n  balance roundrobin\n")
                for i, port in enumerate(ports):
                    f.write(f"  server node{i} 127.0.0.1:{port}\n")
            lb = subprocess.Popen(["haproxy", "-db", "-f", cfg], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
            try:
                wait_http(f"http://127.0.0.1:{lb_port}/healthz", lb)
                before = dep.statements()
                nodes_cpu = lambda: sum(tree_cpu_seconds(p.pid) or 0
                                        for p in [dep.proc] + extra)
                cpu = nodes_cpu()
                result = bench_wrk(bench, f"http://127.0.0.1:{lb_port}", "mixed.lua", args, d, c)
                total = result["rate"] * result["duration_s"]
                per_request = (dep.statements() - before) / total if total else None
                result["cpu_ms_per_request"] = per_unit(cpu, nodes_cpu(), total, 1000)
            finally:
                stop_process(lb)
            result["unit"] = f"req/s, {n} node(s), mixed"
            result["statements_per_request"] = per_request
            bench.record(f"nodes_{n}", result, nodes=n)
            log(f"nodes_{n}: {per_request:.1f} statements per request")
    finally:
        for proc in extra:
            stop_process(proc)
