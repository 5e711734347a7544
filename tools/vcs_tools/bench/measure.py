"""How benchmarks/run measures an implementation: a wrk run (closed loop,
at --rate, a step test or a soak) or one bulk add, with what each request
cost it."""

import json
import time

from vcs_tools.api import Api, lead_items, total_count, wait_total
from vcs_tools.bench.load import bench_wrk, costs, per_unit
from vcs_tools.bench.soak import soak, step_test
from vcs_tools.log import bench_log as log

# bulk_add_10k's leads, in each of its requests.
BULK_SIDE = 10_000


def load(bench, script, args, d, c):
    """A wrk run against the service's public API, with what each
    request cost it."""
    return measure(bench, bench.service(), script, args, d, c)


def settle(bench, impl):
    """Ends the work another implementation's load left in its database.
    Once wrk has gone, a peer still answers the requests it had queued:
    django-drf's workers went on listing 1,000,000 leads (2.8 s a
    request, with parallel workers) into the next measurement.
    Statements get 2 s to end; after that every statement of the
    database is cancelled until it has been idle for 1 s (60 s at most).
    The service bounds its statements by the request's deadline
    itself."""
    d = bench.deployment
    if not d or not impl.database or impl.kind == "service":
        return
    busy = (f"FROM pg_stat_activity WHERE datname = '{impl.database}' AND state = 'active' "
            "AND pid <> pg_backend_pid()")
    started = time.monotonic()
    idle_since = None
    cancelled = 0
    while time.monotonic() - started < 60:
        now = time.monotonic()
        if int(d.psql("postgres", f"SELECT count(*) {busy}")) == 0:
            idle_since = idle_since or now
            if now - idle_since >= 1:
                break
        else:
            idle_since = None
            if now - started >= 2:
                cancelled += int(d.psql(
                    "postgres", f"SELECT count(*) FILTER (WHERE pg_cancel_backend(pid)) {busy}"))
        time.sleep(0.1)
    if cancelled:
        log(f"cancelled {cancelled} statements {impl.name} ran after its load "
            f"({time.monotonic() - started:.1f} s)")


def measure(bench, impl, script, args, d, c):
    """A wrk run against impl: closed loop, at --rate, a step test over
    --rates, or a soak; with the statements and the CPU each request
    cost it (where this run knows them)."""
    a = bench.args
    before = costs(bench, impl)
    if a.rates:
        result = step_test(bench, impl, script, args, d, c)
    elif a.soak:
        result = soak(bench, impl, script, args, d, c)
    else:
        result = bench_wrk(bench, impl.url, script, args, d, c, a.rate)
    after = costs(bench, impl)
    settle(bench, impl)
    requests = sum(s["rate"] * s["duration_s"] for s in result.get("steps", [result]))
    result["statements_per_request"] = per_unit(before[0], after[0], requests)
    result["cpu_ms_per_request"] = per_unit(before[1], after[1], requests, 1000)
    return result


def measure_get(bench, impl, path, key=""):
    """wrk GETs of path on impl, with what each request cost it."""
    a = bench.args
    return measure(bench, impl, "get.lua", [path, key], a.duration, a.connections)


def bulk_items(bench):
    """BULK_SIDE fresh leads for bulk_add_10k (new numbers at every call)."""
    start, bench.bulk_next = bench.bulk_next, bench.bulk_next + BULK_SIDE
    return lead_items("+1628", start, BULK_SIDE, "bulk")


def measure_bulk(bench, impl, items, timeout):
    """One bulk add of items to impl's campaign, timed until answered and
    until total_count has grown by len(items); with the statements it
    cost (per request: it is one) and the CPU per lead. The polls for
    total_count are taken out of both (ten polls before it price one)."""
    api = Api(impl.url, impl.key)
    n = len(items)
    body = json.dumps(items, separators=(",", ":")).encode()
    wait_quiet()
    before_total = total_count(api, impl.campaign)
    c0 = costs(bench, impl)
    for _ in range(10):
        total_count(api, impl.campaign)
    c1 = costs(bench, impl)
    started = time.monotonic()
    api.ok("POST", f"/api/v2/voice-campaigns/{impl.campaign}/leads/bulk", body)
    answered = time.monotonic() - started
    # Polled every 10 ms: at 50 ms the time until listed was a multiple
    # of the interval after the answer, as coarse as the gaps measured.
    polls = wait_total(api, impl.campaign, before_total + n, timeout, interval=0.01)
    listed = time.monotonic() - started
    c2 = costs(bench, impl)
    after_total = total_count(api, impl.campaign)

    def cost(i, units, scale=1.0):
        if None in (c0[i], c1[i], c2[i]):
            return None
        return max(0.0, c2[i] - c1[i] - polls * (c1[i] - c0[i]) / 10) / units * scale
    return {"rate": n / listed, "unit": "leads/s", "p50_ms": None, "p99_ms": None,
            "errors": 0, "leads": n, "accepted_ms": answered * 1000,
            "until_listed_ms": listed * 1000, "leads_before": before_total,
            "leads_after": after_total,
            "statements_per_request": cost(0, 1), "cpu_us_per_lead": cost(1, n, 1e6)}


def cpu_busy(window=0.2):
    """The share of the machine's CPU time that was not idle over window s."""
    def sample():
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        return sum(fields), fields[3] + fields[4]  # idle and iowait
    total0, idle0 = sample()
    time.sleep(window)
    total1, idle1 = sample()
    return 1 - (idle1 - idle0) / max(1, total1 - total0)


def wait_quiet(limit=5.0, busy=0.15):
    """Waits until the machine is nearly idle (at most limit s), so that a
    measurement does not share the cores with what the one before left
    running: a peer's garbage collection, PostgreSQL's autovacuum after
    10,000 inserts. Returns the seconds waited."""
    started = time.monotonic()
    while time.monotonic() - started < limit and cpu_busy() > busy:
        pass
    return time.monotonic() - started
