"""scripts/reliability retention_soak: under a steady load of calls, the
tables retention trims (calls, webhook deliveries, events) level off.

The node runs with every retention at 60 s (swept every 5 s), fast
simulated calls and webhooks sent to a closed port (the tenant has a
signing secret, so each delivery is sent and dies after one retry). A tenant's ACTIVE campaign gets 20 new leads a second, so
calls, events and deliveries are written at a steady rate. Every 10 s the
drill reads the three tables' rows and their size on disk. After a warm-up
of twice the retention the rows must stay within 30% of what they were at
the warm-up's end, and their size on disk within 50% (autovacuum reuses
the space the deletes free). Leads are the tenant's own data and are not
trimmed: they are left out of the figures.
"""

import socket
import threading
import time

from vcs_tools.api import Api, new_provider
from vcs_tools.log import drill_log as log

RETENTION_S = 60
TABLES = ("calls", "webhook_deliveries", "events")
NODE_ENV = {
    "VCS_CALLS_RETENTION": f"{RETENTION_S}s", "VCS_DELIVERIES_RETENTION": f"{RETENTION_S}s",
    "VCS_EVENTS_RETENTION": f"{RETENTION_S}s", "VCS_IMPORTS_RETENTION": f"{RETENTION_S}s",
    "VCS_RETENTION_INTERVAL_MS": "5000", "VCS_DIAL_INTERVAL_MS": "100",
    "VCS_SIMULATED_RING_MS": "20", "VCS_SIMULATED_CALL_MS": "100",
    "VCS_SIMULATED_OUTCOMES": "human:1", "VCS_WEBHOOK_INTERVAL_MS": "100",
    "VCS_WEBHOOK_RETRY_SCHEDULE": "100ms", "VCS_OUTBOUND_ALLOW": "127.0.0.0/8",
    "VCS_TENANT_RATE_LIMIT": "100000"}


def closed_port():
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sample(dep):
    """(rows, bytes on disk) of the trimmed tables, summed."""
    counts = " + ".join(f"(SELECT count(*) FROM {t})" for t in TABLES)
    sizes = " + ".join(f"pg_total_relation_size('{t}')" for t in TABLES)
    rows, size = dep.psql("vcs", f"SELECT {counts}, {sizes}").split("|")
    return int(rows), int(size)


def run(dep, op, seconds):
    """Runs the soak for `seconds` (at least three retentions); answers
    (figures, passed)."""
    dep.stop_service()
    dep.start_service(NODE_ENV)
    try:
        tenant = op.ok("POST", "/admin/v1/tenants", {"name": "soak", "plan": "ENTERPRISE"})
        api = Api(f"http://127.0.0.1:{dep.public_port}", tenant["api_key"]["key"])
        # With a secret the deliveries are sent, fail and die; without one
        # they would wait for it, pending, which retention rightly keeps.
        api.ok("POST", "/api/v2/webhook-secret", {})
        provider = new_provider(api, "soak", 200)
        campaign = api.ok("POST", "/api/v2/voice-campaigns", {
            "name": "soak", "tenant_voice_provider_id": provider,
            "webhook_url": f"http://127.0.0.1:{closed_port()}/hook"})["data"]["campaign_id"]
        api.ok("PATCH", f"/api/v2/voice-campaigns/{campaign}/status", {"status": "ACTIVE"})
        running = True

        def feed():
            n = 0
            while running:
                # Exchanges 200-999: valid North American numbers, so dialed.
                api.ok("POST", f"/api/v2/voice-campaigns/{campaign}/leads/bulk",
                       [{"phone_number": f"+1415{2_000_000 + (n + i) % 8_000_000:07d}"}
                        for i in range(20)])
                n += 20
                time.sleep(1)
        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        samples = []
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            time.sleep(10)
            rows, size = sample(dep)
            samples.append((round(time.monotonic() - started), rows, size))
            log(f"retention_soak: {samples[-1][0]} s: {rows} rows, {size / 1e6:.1f} MB")
        running = False
        feeder.join(timeout=30)
    finally:
        dep.stop_service()
        dep.start_service()
    warm = [s for s in samples if s[0] >= 2 * RETENTION_S]
    if len(warm) < 3:
        return {"samples": len(samples)}, False
    base_rows, base_size = warm[0][1], warm[0][2]
    peak_rows = max(s[1] for s in warm)
    peak_size = max(s[2] for s in warm)
    figures = {"retention_s": RETENTION_S, "seconds": seconds,
               "rows_at_warm_up": base_rows, "rows_max_after": peak_rows,
               "rows_last": warm[-1][1], "mb_at_warm_up": round(base_size / 1e6, 1),
               "mb_max_after": round(peak_size / 1e6, 1)}
    passed = base_rows > 0 and peak_rows <= 1.3 * base_rows and peak_size <= 1.5 * base_size
    return figures, passed


# Retention under a steady load: the trimmed tables level off.
def retention_soak(drills):
    figures, passed = run(drills.dep, drills.op, drills.args.soak_seconds)
    drills.record("retention under steady calls", "the dialer, 20 leads/s", figures,
                  "nothing", drills.alive() and passed)
