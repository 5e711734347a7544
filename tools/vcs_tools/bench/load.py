"""The wrk runs of benchmarks/run and what each request cost: the
statements PostgreSQL ran and the CPU the implementation used."""

from vcs_tools.deployment import tree_cpu_seconds
from vcs_tools.wrk import wrk

MIX_KINDS = ("v1_update", "list", "campaign_read", "add_lead", "client_detail")


def bench_wrk(bench, url, script, args, d, c, rate=None):
    """wrk with this run's threads; each run of mixed.lua numbers its new
    leads in an area of its own (+1 AREA ..., from a counter that
    restarts with each wrk), so no run repeats an earlier one's."""
    if script == "mixed.lua":
        bench.area = 200 + (bench.area - 199) % 800
        args = args[:6] + [str(bench.area), mix_weights(bench)]
    return wrk(url, script, args, d, c, bench.wrk_threads, rate)


def mix_weights(bench):
    """--mix as mixed.lua's WEIGHTS argument, in MIX_KINDS order."""
    return ",".join(str(bench.args.mix[k]) for k in MIX_KINDS)


def costs(bench, impl):
    """(statements, CPU seconds) impl has used so far; None where unknown."""
    d = bench.deployment
    statements = d.statements(impl.database) if d and impl.database else None
    pid = impl.pid() if impl.pid else None
    return statements, (tree_cpu_seconds(pid) if pid else None)


def per_unit(before, after, units, scale=1.0):
    """(after - before) / units * scale, or None when anything is unknown."""
    if before is None or after is None or not units:
        return None
    return (after - before) / units * scale
