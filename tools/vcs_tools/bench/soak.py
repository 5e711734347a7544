"""The long runs of benchmarks/run: a soak in windows (--soak), with each
window's tail by route from the service's own histograms, and the step test
over --rates."""

import collections
import math
import re
import statistics

from vcs_tools.bench.load import bench_wrk
from vcs_tools.log import bench_log as log


def soak(bench, impl, script, args, d, c):
    """A long run (closed loop, or open loop at --rate) as back-to-back
    windows of --window seconds: each window's rate, p50 and p99 and the
    service's RSS after it, and the drift from the first window to the
    last."""
    a = bench.args
    window = a.window
    windows, elapsed, by_status = [], 0, collections.Counter()
    # The service's own histograms tell which routes a window's tail is.
    own = impl.kind == "service"
    latencies = route_latencies(bench.op) if own else None
    while elapsed < d:
        length = min(window, d - elapsed)
        w = bench_wrk(bench, impl.url, script, args, length, c, a.rate)
        by_status.update(w["errors_by_status"])
        rss = bench.deployment.rss_mb() if bench.deployment and bench.deployment.proc else None
        windows.append({"second": elapsed, "answered": w["rate"], "p50_ms": w["p50_ms"],
                        "p99_ms": w["p99_ms"], "errors": w["errors"], "rss_mb": rss})
        log(f"  soak {elapsed}-{elapsed + length} s: {w['rate']:.0f} req/s, "
            f"p99 {w['p99_ms']} ms, RSS {rss} MB")
        if own:
            now = route_latencies(bench.op)
            windows[-1]["routes"] = route_p99(latencies, now)
            latencies = now
            log("    p99 by route: " + ", ".join(
                f"{r} {v['p99_ms']} ms ({v['requests']})"
                for r, v in sorted(windows[-1]["routes"].items())))
        elapsed += length
    first, last = windows[0], windows[-1]
    ratio = lambda k: last[k] / first[k] if first[k] else None
    requests = sum(w["answered"] * min(window, d - w["second"]) for w in windows)
    return {"rate": requests / d, "unit": "req/s", "duration_s": d,
            "p50_ms": statistics.median(w["p50_ms"] for w in windows),
            "p99_ms": max(w["p99_ms"] for w in windows),
            "errors": sum(w["errors"] for w in windows),
            "errors_by_status": dict(by_status),
            "load": f"{w['load']}, soak in {window} s windows",
            "timeline": windows,
            "drift": {"rate_ratio": ratio("answered"), "p99_ratio": ratio("p99_ms"),
                      "rss_mb": (last["rss_mb"] - first["rss_mb"])
                      if last["rss_mb"] is not None and first["rss_mb"] is not None
                      else None}}


def step_test(bench, impl, script, args, d, c):
    """Each rate of --rates in turn, open loop: each step's figures, and
    the highest rate whose --slo percentile held with no error, every
    send on schedule and at most 1% of the sends unanswered at the end."""
    a = bench.args
    steps = []
    for rate in a.rates:
        step = bench_wrk(bench, impl.url, script, args, d, c, rate)
        log(f"  {rate} req/s: {step['rate']:.0f} done, p99 {step['p99_ms']} ms, "
            f"{step['errors']} errors, {step['unfinished']} unfinished, "
            f"{step['send_shortfall']:.1%} sends behind schedule")
        steps.append(step)
    point, limit = a.slo
    met = [s["target_rate"] for s in steps
           if s["errors"] == 0 and s["send_shortfall"] <= 0.01 and
           s["unfinished"] <= 0.01 * s["target_rate"] * s["duration_s"] and
           s["latency_ms"][point] is not None and s["latency_ms"][point] <= limit]
    result = dict(steps[-1])
    result.update({"steps": steps, "slo": f"p{point} <= {limit:g} ms",
                   "max_rate_meeting_slo": max(met) if met else None})
    log(f"  highest rate meeting {result['slo']}: {result['max_rate_meeting_slo']}")
    return result


def route_latencies(op):
    """The service's request latency histograms by route, from the operator
    listener's /metrics: {route: {bucket upper bound in s: requests at or
    under it}}."""
    out = collections.defaultdict(dict)
    for m in re.finditer(r'^vcs_http_request_duration_seconds_bucket\{route="([^"]*)",'
                         r'le="([^"]+)"\} (\d+)$', op.metrics(30), re.M):
        out[m[1]][float(m[2])] = int(m[3])
    return out


def route_p99(before, after):
    """Each route's requests between two route_latencies scrapes and their
    p99 in ms (the upper bound of its histogram bucket; None past the last)."""
    out = {}
    for route, buckets in after.items():
        delta = sorted((le, n - before.get(route, {}).get(le, 0)) for le, n in buckets.items())
        total = delta[-1][1]
        if total > 0:
            le = next(le for le, n in delta if n >= 0.99 * total)
            out[route] = {"requests": total, "p99_ms": None if math.isinf(le) else le * 1000}
    return out
