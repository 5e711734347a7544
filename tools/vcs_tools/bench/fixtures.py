"""The campaigns, clients and payment requests benchmarks/run's scenarios
share, made on first use."""

from vcs_tools.api import (lead_items, load_leads, new_client, new_payment_request,
                           new_product, subscriptions)
from vcs_tools.log import bench_log as log

# Strong enough for the service's password check (zxcvbn, 2^20 guesses).
BENCH_PASSWORD = "bench lantern password"


def fixture(bench, name):
    """Campaigns shared by scenarios, created on first use."""
    if name in bench.fixtures:
        return bench.fixtures[name]
    a = bench.args
    if name == "big":
        c = bench.campaign("bench-big")
        log(f"loading {a.leads} leads into one campaign")
        if bench.side_by_side:
            # Rows like the peers' seeds (names, e-mail, three custom
            # fields), vacuumed and analysed like theirs.
            load_leads(bench.api, c, a.leads, "+1629", items=lead_items)
            if bench.deployment:
                bench.deployment.psql("vcs", "VACUUM ANALYZE")
        else:
            load_leads(bench.api, c, a.leads, "+1629")
    elif name == "hot":
        c = bench.campaign("bench-hot")
        load_leads(bench.api, c, a.hot_leads, "+1630")
    elif name == "product":
        if not bench.op:
            return None  # a tenant's key cannot create products
        c = new_product(bench.op, bench.tenant_id, "prod_bench", "Bench plan", 1000,
                        "price_bench")
    elif name == "client":
        c = bench_client(bench, "bench-client", [fixture(bench, "hot")])
    elif name == "payments":
        c = []
        for i in range(a.payment_clients):
            client = bench_client(bench, f"bench-pay-{i}", [])
            subs = subscriptions(bench.api, client)
            c.append(new_payment_request(bench.op, client, subs[0]["id"]))
    bench.fixtures[name] = c
    return c


def bench_client(bench, name, campaigns):
    """A client holding `campaigns`, billed on the bench product when an
    operator token could create it."""
    return new_client(bench.api, name, f"{name}@bench.example", BENCH_PASSWORD, campaigns,
                      ("prod_bench", "price_bench") if fixture(bench, "product") else None)
