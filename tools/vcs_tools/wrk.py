"""wrk driving a scenario script of benchmarks/wrk (the Lua of
common.lua, which prints a summary and, paced, logs every answer) and the
figures of its runs."""

import collections
import json
import os
import re
import subprocess
import tempfile

from vcs_tools import ROOT
from vcs_tools.api import percentile

WRK_DIR = os.path.join(ROOT, "benchmarks", "wrk")


def wrk(url, script, args, duration, connections, threads=2, rate=None):
    """A wrk run of a scenario script: closed loop, or with rate an open loop
    at that many requests a second (common.lua's pacing), one connection
    per thread and at most one per request a second."""
    env, log_path = None, None
    if rate:
        threads = connections = max(1, min(connections, rate))
        fd, log_path = tempfile.mkstemp(prefix="vcs-wrk.", suffix=".log")
        os.close(fd)
        env = dict(os.environ, WRK_INTERVAL_US=f"{connections * 1e6 / rate:.3f}",
                   WRK_DURATION_US=str(duration * 1_000_000), WRK_LOG=log_path)
    try:
        r = wrk_summary(url, script, args, duration, connections, threads, env)
        if rate:
            with open(log_path) as f:
                rows = [tuple(int(v) for v in line.split("\t")) for line in f if line.strip()]
            return open_loop_figures(rows, rate, duration, r, connections)
    finally:
        if log_path:
            os.unlink(log_path)
    return {"rate": r["requests"] / (r["duration_us"] / 1e6), "unit": "req/s",
            "duration_s": r["duration_us"] / 1e6,
            "p50_ms": r["p50_us"] / 1000, "p99_ms": r["p99_us"] / 1000, "errors": r["errors"],
            "errors_by_status": errors_by_status(r["statuses"], r["socket_errors"]),
            "latency_ms": {p: us / 1000 for p, us in r["percentiles_us"].items()},
            "max_ms": r["max_us"] / 1000, "load": f"closed loop, {connections} connections (wrk)"}


def wrk_summary(url, script, args, duration, connections, threads, env=None, check=True):
    """The summary common.lua prints (WRK_JSON) after a wrk run of a
    scenario script; with check, wrk failing raises."""
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "10s",
           "-s", os.path.join(WRK_DIR, script), url, "--"] + [str(a) for a in args]
    out = subprocess.run(cmd, check=check, capture_output=True, text=True, env=env,
                         timeout=duration + 60).stdout
    m = re.search(r"WRK_JSON (\{.*\})", out)
    if not m:
        raise RuntimeError(f"wrk printed no summary:\n{out}")
    return json.loads(m.group(1))


# The latency percentiles every result reports (wrk's from common.lua).
LATENCY_POINTS = ("50", "75", "90", "99", "99.9", "99.99")


def errors_by_status(statuses, socket_errors):
    """Answers other than 2xx by status, and connection errors and timeouts
    as `socket`."""
    errors = {status: n for status, n in statuses.items() if not status.startswith("2")}
    if socket_errors:
        errors["socket"] = socket_errors
    return errors


def open_loop_figures(rows, rate, duration, summary, connections):
    """An open-loop run's figures from its answers, (due µs, status, latency
    µs) each: percentiles of the latency counted from when each request was
    due, errors by status (socket errors apart), each second's answers and
    percentiles, `unfinished` (scheduled but not answered when the run
    ended: the backlog) and `send_shortfall` (the share of scheduled sends
    that did not leave; the load kept its schedule only while it is near 0).
    The run is the schedule's duration: answers to requests due after it,
    while wrk stops its threads, are left out."""
    rows = [r for r in rows if r[0] < summary["deadline_us"]]
    scheduled = summary["scheduled"]
    latencies = sorted(r[2] / 1000 for r in rows)
    statuses = collections.Counter(str(r[1]) for r in rows)
    errors = errors_by_status(statuses, summary["socket_errors"])
    t0 = min((r[0] for r in rows), default=0)
    seconds = {}
    for r in rows:
        seconds.setdefault(int((r[0] - t0) // 1_000_000), []).append(r[2] / 1000)
    timeline = []
    for k, v in sorted(seconds.items()):
        v.sort()
        timeline.append({"second": k, "answered": len(v), "p50_ms": percentile(v, 50),
                         "p99_ms": percentile(v, 99)})
    return {"rate": len(rows) / duration, "unit": "req/s", "target_rate": rate,
            "duration_s": duration, "p50_ms": percentile(latencies, 50),
            "p99_ms": percentile(latencies, 99),
            "latency_ms": {p: percentile(latencies, float(p)) for p in LATENCY_POINTS},
            "max_ms": latencies[-1] if latencies else None,
            "errors": sum(errors.values()), "errors_by_status": errors,
            "statuses": dict(statuses),
            "unfinished": max(0, scheduled - len(rows)),
            "send_shortfall": max(0.0, 1 - summary["started"] / scheduled) if scheduled else 1.0,
            "timeline": timeline,
            "load": f"open loop at {rate} req/s, {connections} connections (wrk, paced)"}
