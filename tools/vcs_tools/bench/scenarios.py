"""benchmarks/run's scenarios, looked up by name in SCENARIOS: each a
function(bench, scenario, duration, connections) that measures and records
its result (bench.record), or logs why it is skipped."""

from vcs_tools.api import phones
from vcs_tools.bench import baselines, cluster, scale
from vcs_tools.bench.fixtures import fixture
from vcs_tools.bench.measure import bulk_items, load, measure_bulk
from vcs_tools.log import bench_log as log


def health(bench, scenario, d, c):
    return bench.record(scenario, load(bench, "get.lua", ["/healthz", ""], d, c))


def list_leads(bench, scenario, d, c):
    """list_page1 and list_deep: a page of the list campaign, at offset 0 or
    --deep-offset."""
    big = fixture(bench, "big")
    offset = 0 if scenario == "list_page1" else bench.args.deep_offset
    path = f"/api/v2/voice-campaigns/{big}/leads/list?limit=50&offset={offset}"
    return bench.record(scenario, load(bench, "get.lua", [path, bench.api.token], d, c),
                        offset=offset)


def bulk_add(bench, scenario, d, c):
    camp = bench.campaign("bench-bulk")
    return bench.record(scenario, measure_bulk(bench, bench.service(camp),
                                               phones("+1631", 0, bench.args.bulk), 600))


def bulk_add_10k(bench, scenario, d, c):
    # 10,000 fresh leads into the list campaign (it grows by as many).
    return bench.record(scenario, measure_bulk(bench, bench.service(fixture(bench, "big")),
                                               bulk_items(bench), 120))


def update(bench, scenario, d, c):
    """update_batched and update_unbatched: v1 lead updates, the second with
    the service restarted to write them one at a time."""
    a = bench.args
    if scenario == "update_batched" and not bench.tenant_id:
        return log(f"skipping {scenario} (its v1 updates name the tenant: --tenant-id)")
    if scenario == "update_unbatched":
        if not bench.deployment:
            return log("skipping update_unbatched (needs to restart the service)")
        bench.deployment.stop_service()
        bench.deployment.start_service({"VCS_BATCH_SIZE": "1"})
    hot = fixture(bench, "hot")
    args = [hot, bench.api.token, bench.tenant_id, a.hot_leads, "+1630"]
    try:
        return bench.record(scenario, load(bench, "v1_update.lua", args, d, c))
    finally:
        if scenario == "update_unbatched":
            bench.deployment.stop_service()
            bench.deployment.start_service()


def bulk_update_100(bench, scenario, d, c):
    hot = fixture(bench, "hot")
    args = [hot, bench.api.token, bench.args.hot_leads, "+1630"]
    return bench.record(scenario, load(bench, "bulk_update.lua", args, d, min(c, 16)),
                        leads_per_request=100)


def payment_patch(bench, scenario, d, c):
    if not bench.op:
        return log("skipping payment_patch (payment requests need an operator token)")
    ids = fixture(bench, "payments")
    return bench.record(scenario, load(bench, "payment_patch.lua",
                                       [bench.api.token, ",".join(ids)], d, c),
                        payment_requests=len(ids))


def client_detail(bench, scenario, d, c):
    client = fixture(bench, "client")
    return bench.record(scenario, load(bench, "get.lua",
                                       [f"/api/v2/clients/{client}", bench.api.token], d, c))


def mixed(bench, scenario, d, c):
    a = bench.args
    if not bench.tenant_id:
        return log(f"skipping {scenario} (its v1 updates name the tenant: --tenant-id)")
    hot = fixture(bench, "hot")
    client = fixture(bench, "client")
    args = [hot, bench.api.token, bench.tenant_id, a.hot_leads, "+1630", client]
    return bench.record(scenario, load(bench, "mixed.lua", args, d, c), mix=a.mix)


def scale_scenario(bench, scenario, d, c):
    a = bench.args
    if not bench.deployment:
        return log("skipping scale (writes rows straight into its own database)")
    bench.scale_rows = scale.run_scale(bench, a.scale_sizes, a.scale_requests)
    growth = [r for r in bench.scale_rows if r["size"] == "growth"]
    return bench.record(scenario, {
        "rate": max(r["p50_ratio"] for r in growth), "unit": "x: largest p50 growth",
        "p50_ms": None, "p99_ms": None,
        "errors": sum(r.get("errors", 0) for r in bench.scale_rows)},
        sizes=a.scale_sizes, statements_growth=max(r["statements_growth"] for r in growth))


# Every scenario, in the order a run takes them.
SCENARIOS = {
    "baseline_static": baselines.static,
    "baseline_pgbench_select": baselines.pgbench_select,
    "baseline_pgbench_insert": baselines.pgbench_insert,
    "health": health,
    "list_page1": list_leads,
    "list_deep": list_leads,
    "bulk_add": bulk_add,
    "bulk_add_10k": bulk_add_10k,
    "update_batched": update,
    "update_unbatched": update,
    "bulk_update_100": bulk_update_100,
    "payment_patch": payment_patch,
    "client_detail": client_detail,
    "mixed": mixed,
    "actors_10k": cluster.actors_10k,
    "dial_rules": cluster.dial_rules,
    "dialer_1000": cluster.dialer_1000,
    "nodes_1_2_3": cluster.nodes_1_2_3,
    "scale": scale_scenario,
}
# Run only when named: they load millions of rows.
NAMED_ONLY = ("scale",)
# Each scenario's ratio is to the database's own ceiling for its kind of work.
BASELINE_OF = {
    "health": "baseline_static",
    "list_page1": "baseline_pgbench_select",
    "list_deep": "baseline_pgbench_select",
    "client_detail": "baseline_pgbench_select",
    "mixed": "baseline_pgbench_select",
    "bulk_add": "baseline_pgbench_insert",
    "bulk_add_10k": "baseline_pgbench_insert",
    "update_batched": "baseline_pgbench_insert",
    "update_unbatched": "baseline_pgbench_insert",
    "bulk_update_100": "baseline_pgbench_insert",
    "payment_patch": "baseline_pgbench_insert",
}
