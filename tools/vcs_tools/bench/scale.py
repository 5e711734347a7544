"""benchmarks/run scale: every public read and the hot writes of one tenant
at growing sizes, to show which costs stay flat as a tenant's data grows.

For each size N the run provisions a tenant of its own and gives it one
campaign of N leads (added through the API, as a tenant would), a client
holding that campaign, N/10 more campaigns, and N calls, N webhook
deliveries, N events, N/1,000 finished imports of 10 rejected rows each and
N/100 payment requests (written straight into the database: placing
millions of calls through the dialer would take days). Then it reads and
writes each route one request at a time on one connection: p50 and p99 of
`requests` requests, and the statements PostgreSQL ran per request
(pg_stat_statements, less the node's idle rate), with the node's
background rounds slowed to a crawl and its lead page cache off, so that
what is measured is each request's own database work.
"""

import datetime
import time

from vcs_tools.api import Api, load_leads, new_client, new_provider, percentile, row_id
from vcs_tools.bench.fixtures import BENCH_PASSWORD
from vcs_tools.client import KeepAlive
from vcs_tools.log import bench_log as log

# Background rounds out of the way (the health probe stays: its rate is
# measured and subtracted); the lead page cache off, so lists read the
# database; simulated calls that stay ringing, so dial passes leave no
# call endings behind them.
QUIET = {"VCS_DIAL_INTERVAL_MS": "3600000", "VCS_WEBHOOK_INTERVAL_MS": "3600000",
         "VCS_IMPORT_SWEEP_INTERVAL_MS": "3600000", "VCS_BILLING_SWEEP_INTERVAL_MS": "3600000",
         "VCS_RETENTION_INTERVAL_MS": "3600000", "VCS_COUNTER_FOLD_INTERVAL_MS": "3600000",
         "VCS_LEAD_PAGE_CACHE_MB": "0", "VCS_SIMULATED_RING_MS": "3600000",
         "VCS_TENANT_RATE_LIMIT": "1000000", "VCS_DIAL_BATCH": "10"}

# Rows written straight into the database for a tenant at size N, a
# statement at a time. The campaigns are analysed before the calls that
# reference them: a foreign key check keeps the plan it was first given,
# and one planned while the statistics still said one campaign read the
# tenant's campaigns for every inserted call (10,000,000 calls did not end).
SEED_STEPS = [
    """INSERT INTO campaigns (tenant_id, name) SELECT {t}, 'scale-extra-' || g
         FROM generate_series(1, {n} / 10) g""",
    "ANALYZE campaigns",
    """INSERT INTO calls (tenant_id, campaign_id, lead_id, phone_number, attempt, status, outcome,
                          node_id, duration_seconds, usage_recorded, created_at, ringing_at,
                          ended_at)
         SELECT {t}, {c}, g, '+1415' || lpad(g::text, 7, '0'), 1, 'COMPLETED', 'human', 'seed',
                30, true, now() - g * interval '1 second', now() - g * interval '1 second',
                now() - g * interval '1 second' + interval '30 seconds'
         FROM generate_series(1, {n}) g""",
    """INSERT INTO webhook_deliveries (tenant_id, campaign_id, event_id, event_type, url, payload,
                                       status, attempts, delivered_at)
         SELECT {t}, {c}, 'evt_scale_{t}_' || g, 'call.ended', 'https://hooks.example/scale',
                '{{}}', 'delivered', 1, now() FROM generate_series(1, {n}) g""",
    """INSERT INTO events (tenant_id, event_id, event_type, campaign_id, payload)
         SELECT {t}, 'evt_feed_{t}_' || g, 'call.ended', {c}, '{{}}'
         FROM generate_series(1, {n}) g""",
    """WITH jobs AS (
         INSERT INTO lead_import_jobs (tenant_id, campaign_id, status, accepted, invalid,
                                       finished_at)
         SELECT {t}, {c}, 'done', 10, 10, now() FROM generate_series(1, greatest(1, {n} / 1000))
         RETURNING id)
       INSERT INTO lead_import_rejections (job_id, row_index, reason, message)
         SELECT id, g, 'invalid', 'not a phone number' FROM jobs, generate_series(0, 9) g""",
    """INSERT INTO payment_requests (tenant_id, client_id, status, type, amount, currency,
                                     due_date, period_start, period_end)
         SELECT {t}, {client}, 'PENDING', 'SUBSCRIPTION', 49, 'USD', now() + interval '30 days',
                now(), now() + interval '30 days'
         FROM generate_series(1, greatest(1, {n} / 100))""",
]


class Tenant:
    """One size's tenant, its data and the requests measured on it."""

    def __init__(self, bench, size):
        self.bench, self.size = bench, size
        op = bench.op
        tenant = op.ok("POST", "/admin/v1/tenants", {"name": f"scale-{size}", "plan": "ENTERPRISE",
                                                     "campaign_limit": min(1_000_000, size // 10 + 1000)})
        self.tenant_id = tenant["tenant_id"]
        self.api = Api(bench.public, tenant["api_key"]["key"])
        self.campaign = self.api.ok("POST", "/api/v2/voice-campaigns",
                                    {"name": f"scale-{size}"})["data"]["campaign_id"]
        log(f"scale {size}: loading {size} leads")
        self.prefix = "+1632"
        load_leads(self.api, self.campaign, size, self.prefix)
        email = f"scale-{size}@bench.example"
        self.client = new_client(self.api, f"scale-{size}", email, BENCH_PASSWORD,
                                 [self.campaign])
        d = bench.deployment
        tenant_row = row_id(self.tenant_id)
        log(f"scale {size}: writing calls, deliveries, events, imports, payment requests")
        for step in SEED_STEPS:
            d.psql("vcs", step.format(t=tenant_row, c=row_id(self.campaign),
                                      client=row_id(self.client), n=size))
        d.psql("vcs", "VACUUM ANALYZE")
        self.bulk_next = 0

    def routes(self):
        """(name, method, path, body or a function of the request's number)."""
        c, size = self.campaign, self.size
        return [
            ("campaign_read", "GET", f"/api/v2/voice-campaigns/{c}", None),
            ("campaign_list", "GET", "/api/v2/voice-campaigns?page=1&page_size=20", None),
            ("list_page1", "GET", f"/api/v2/voice-campaigns/{c}/leads/list?limit=50", None),
            ("list_deep", "GET",
             f"/api/v2/voice-campaigns/{c}/leads/list?limit=50&offset={size // 2}", None),
            ("lead_by_phone", "GET", f"/api/v2/voice-campaigns/{c}/leads/list?limit=1&"
                                     f"phone_number=%2B1632{size // 3:07d}", None),
            ("client_detail", "GET", f"/api/v2/clients/{self.client}", None),
            ("calls", "GET", f"/api/v2/voice-campaigns/{c}/calls?page_size=20", None),
            ("forecast", "GET", f"/api/v2/voice-campaigns/{c}/forecast", None),
            ("imports", "GET", f"/api/v2/voice-campaigns/{c}/leads/imports", None),
            ("deliveries", "GET", "/api/v2/webhook-deliveries?page_size=20", None),
            ("events", "GET", "/api/v2/events?limit=100", None),
            ("payment_requests", "GET",
             f"/api/v2/external-billing/payment-requests?client_id={self.client}", None),
            ("subscriptions", "GET",
             f"/api/v2/external-billing/subscriptions?client_id={self.client}", None),
            ("usage", "GET", f"/api/v2/external-billing/usage?client_id={self.client}", None),
            ("v1_update", "PATCH", f"/v1/api/voice-campaigns/{c}/lead/update",
             lambda i: {"tenant_id": str(self.tenant_id),
                        "phone_number": f"{self.prefix}{(i * 7919) % size:07d}",
                        "custom_fields": {"n": i}}),
            ("bulk_add_100", "POST", f"/api/v2/voice-campaigns/{c}/leads/bulk", self.bulk_body),
        ]

    def bulk_body(self, _):
        start = self.bulk_next
        self.bulk_next += 100
        return [{"phone_number": f"+1633{i:07d}"} for i in range(start, start + 100)]


def measure(deployment, connection, method, path, body, requests, idle_rate):
    """p50, p99, errors and statements per request of `requests` requests."""
    before = deployment.statements("vcs")
    started = time.monotonic()
    times, errors = [], 0
    for i in range(requests):
        status, seconds = connection.timed(method, path, body(i) if callable(body) else body)
        times.append(seconds * 1000)
        errors += status >= 400
    elapsed = time.monotonic() - started
    statements = deployment.statements("vcs") - before - idle_rate * elapsed
    times.sort()
    return {"p50_ms": round(percentile(times, 50), 2), "p99_ms": round(percentile(times, 99), 2),
            "errors": errors, "statements_per_request": round(max(0.0, statements) / requests, 2)}


def idle_statements_per_second(deployment, seconds=2.0):
    """What the node runs with nothing asked of it (the health probe)."""
    before = deployment.statements("vcs")
    time.sleep(seconds)
    # The question itself is asked from another database and not counted.
    return (deployment.statements("vcs") - before) / seconds


def operator_routes(bench, tenant):
    """The background work measured on demand: a dial round (the tenant's
    campaign ACTIVE on a simulated provider) and a billing sweep."""
    provider = new_provider(tenant.api, "bench", 1000)
    tenant.api.ok("PATCH", f"/api/v2/voice-campaigns/{tenant.campaign}",
                  {"tenant_voice_provider_id": provider})
    tenant.api.ok("PATCH", f"/api/v2/voice-campaigns/{tenant.campaign}/status",
                  {"status": "ACTIVE"})
    started = datetime.datetime.now(datetime.timezone.utc)

    def later(i):
        # A minute further each round, so that the campaign is due again.
        at = started + datetime.timedelta(minutes=i + 1)
        return {"now": at.strftime("%Y-%m-%dT%H:%M:%SZ")}
    return [("dial_round", "POST", "/admin/v1/dialer/run", later),
            ("billing_sweep", "POST", "/admin/v1/billing/sweep", {})]


def run_scale(bench, sizes, requests):
    """Measures every route at every size; returns the rows of the report
    (one per route and size, then one growth row per route)."""
    d = bench.deployment
    d.stop_service()
    d.start_service(QUIET)
    rows = []
    try:
        for size in sizes:
            tenant = Tenant(bench, size)
            idle = idle_statements_per_second(d)
            public = KeepAlive(bench.public, 600, tenant.api.token)
            operator = KeepAlive(bench.op.base, 600, bench.op.token)
            try:
                for name, method, path, body in tenant.routes():
                    r = measure(d, public, method, path, body, requests, idle)
                    rows.append({"route": name, "size": size, **r})
                    log(f"scale {size}: {name} p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, "
                        f"{r['statements_per_request']} statements, {r['errors']} errors")
                for name, method, path, body in operator_routes(bench, tenant):
                    # Fewer: each dial round places calls.
                    r = measure(d, operator, method, path, body, max(5, requests // 10), idle)
                    rows.append({"route": name, "size": size, **r})
                    log(f"scale {size}: {name} p50 {r['p50_ms']} ms, "
                        f"{r['statements_per_request']} statements, {r['errors']} errors")
                # Not dialed again at the next size's rounds.
                tenant.api.ok("PATCH", f"/api/v2/voice-campaigns/{tenant.campaign}/status",
                              {"status": "ENDED"})
            finally:
                public.close()
                operator.close()
    finally:
        d.stop_service()
        d.start_service()
    return rows + growth(rows, sizes)


def grown(rows):
    """Routes that ran more statements per request at the largest size (half
    a statement of slack for what the node did on its own meanwhile)."""
    return [r["route"] for r in rows if r["size"] == "growth" and r["statements_growth"] > 0.5]


def growth(rows, sizes):
    """Each route's p50 and statements at the largest size against the
    smallest."""
    out = []
    by = {(r["route"], r["size"]): r for r in rows}
    for route in dict.fromkeys(r["route"] for r in rows):
        small, large = by.get((route, sizes[0])), by.get((route, sizes[-1]))
        if not small or not large:
            continue
        out.append({"route": route, "size": "growth",
                    "p50_ratio": round(large["p50_ms"] / max(small["p50_ms"], 0.001), 2),
                    "statements_growth": round(large["statements_per_request"] -
                                               small["statements_per_request"], 2)})
    return out
