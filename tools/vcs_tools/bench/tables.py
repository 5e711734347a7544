"""benchmarks/run's tables on stdout: the results, side by side, and the
scale scenario's routes by size."""

from vcs_tools.bench.measure import BULK_SIDE


def table(bench):
    rows = [("scenario", "rate", "unit", "p50 ms", "p99 ms", "errors", "vs baseline",
             "stmts/req", "CPU", "peak RSS MB")]
    for r in bench.results:
        rows.append((r["scenario"], fmt(r["rate"], "{:.0f}"), str(r["unit"]),
                     fmt(r["p50_ms"]), fmt(r["p99_ms"]), str(r["errors"]),
                     fmt(r.get("ratio"), "{:.3f}x"),
                     fmt(r.get("statements_per_request"), "{:.1f}"), fmt_cpu(r),
                     fmt(r.get("rss_mb"), "{:.0f}")))
    print_rows(rows)


def scale_table(bench):
    if not bench.scale_rows:
        return
    sizes = bench.args.scale_sizes
    by = {(r["route"], r["size"]): r for r in bench.scale_rows}
    rows = [("route",) + tuple(f"p50 ms @{n}" for n in sizes) + ("p50 growth",) +
            tuple(f"stmts @{n}" for n in sizes)]
    for route in dict.fromkeys(r["route"] for r in bench.scale_rows):
        g = by.get((route, "growth"), {})
        rows.append((route,) + tuple(fmt(by.get((route, n), {}).get("p50_ms")) for n in sizes) +
                    (fmt(g.get("p50_ratio"), "{:.2f}x"),) +
                    tuple(fmt(by.get((route, n), {}).get("statements_per_request"), "{:.2f}")
                          for n in sizes))
    print_rows(rows)


def side_table(bench):
    if not bench.side_summary:
        return
    a = bench.args
    print(f"\nside by side: {a.rounds} round(s) of wrk -t{bench.wrk_threads} "
          f"-c{a.connections} -d{a.duration}s, {a.leads} leads per list campaign, "
          f"list_deep offset {a.deep_offset}, bulk_add_{BULK_SIDE // 1000}k: "
          f"{BULK_SIDE} leads per round, leads/s until listed")
    rows = [("scenario", "implementation", "median", "unit", "rounds", "p50 ms", "p99 ms",
             "errors", "vs service", "vs ceiling", "stmts/req", "CPU",
             "answered/listed s")]
    for r in bench.side_summary:
        bulk = r.get("until_listed_ms") is not None
        rows.append((r["scenario"], r["implementation"], fmt(r["rate"], "{:.0f}"),
                     str(r["unit"] or "-"),
                     " / ".join(fmt(v, "{:.0f}") for v in r["rounds"]),
                     fmt(r["p50_ms"]), fmt(r["p99_ms"]), str(r["errors"]),
                     fmt(r["vs_service"], "{:.2f}x"), fmt(r["vs_ceiling"], "{:.3f}x"),
                     fmt(r.get("statements_per_request"), "{:.1f}"), fmt_cpu(r),
                     f"{fmt(seconds(r.get('accepted_ms')))} / "
                     f"{fmt(seconds(r['until_listed_ms']))}" if bulk else "-"))
    print_rows(rows)
    for s in bench.skipped:
        print(f"not measured: {s['implementation']}: {s['reason']}")


def fmt(v, p="{:.2f}"):
    return "-" if v is None else p.format(v)


def seconds(ms):
    return None if ms is None else ms / 1000


def fmt_cpu(r):
    """Service CPU per unit of work, from /proc/PID/stat (10 ms ticks)."""
    if r.get("cpu_ms_per_request") is not None:
        return f"{r['cpu_ms_per_request']:.3f} ms/req"
    if r.get("cpu_us_per_lead") is not None:
        return f"{r['cpu_us_per_lead']:.1f} us/lead"
    if r.get("cpu_ms_per_call") is not None:
        return f"{r['cpu_ms_per_call']:.2f} ms/call"
    return "-"


def print_rows(rows):
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
