"""What the failover and switchover drills find on the new primary once
their load has stopped, against what the load had acknowledged."""

import time

from vcs_tools.api import Api, total_count, wait_total
from vcs_tools.drills.webhooks import webhook_figures

# Each subscription's period end (epoch µs), in SQL.
PERIOD_END = "(extract(epoch FROM current_period_end) * 1000000)::bigint"


def period_ends(cluster, tenant_row):
    """Each subscription's period end (epoch µs) on the primary now."""
    return {int(a): int(b) for a, b in (line.split("|") for line in cluster.on_primary(
        f"SELECT id, {PERIOD_END} FROM subscriptions WHERE tenant_id = {tenant_row}"
    ).splitlines())}


def check(cluster, s, load, outages, receiver):
    """Read through node 1 and on the primary: the leads, the last update
    and payment update, calls, the outbox against what the receiver got
    (once the campaign is paused and its calls ended), the billed periods."""
    on_primary = cluster.on_primary
    acked, tenant_row = load.acked, s.tenant_row
    api = Api(f"http://127.0.0.1:{cluster.ports[1][0]}", s.key)
    found = {"adds": total_count(api, s.adds)}
    try:  # acknowledged bulk adds finish importing in the background
        wait_total(api, s.bulks, len(acked["bulk"]), timeout=120)
    except RuntimeError:
        pass
    found["bulk"] = total_count(api, s.bulks)
    lead = api.ok("GET", f"/api/v2/voice-campaigns/{s.updated}/leads/list?limit=1")["leads"][0]
    found["seq"] = int((lead.get("custom_fields") or {}).get("seq", 0))
    paid = api.ok("GET", f"/api/v2/external-billing/payment-requests/{s.payment}/")
    paid = paid.get("data", paid)
    found["payment_seq"] = int((paid.get("external_payment_id") or "pi_0")[3:])
    found["double_calls"] = int(on_primary(
        "SELECT count(*) FROM (SELECT lead_id, attempt FROM calls "
        "GROUP BY lead_id, attempt HAVING count(*) > 1) twice"))
    found["calls"] = int(on_primary("SELECT count(*) FROM calls"))
    # No new events once the campaign is paused and its last calls
    # ended; the outbox then drains (claims made on a lost primary
    # run out first).
    api.ok("PATCH", f"/api/v2/voice-campaigns/{s.dialed}/status", {"status": "PAUSED"})
    unsettled_sql = (
        "SELECT (SELECT count(*) FROM webhook_deliveries "
        f"WHERE tenant_id = {tenant_row} AND status = 'pending') + "
        f"(SELECT count(*) FROM calls WHERE tenant_id = {tenant_row} AND ended_at IS NULL)")
    drained = time.monotonic() + 90
    while time.monotonic() < drained and on_primary(unsettled_sql) != "0":
        time.sleep(0.5)
    stored = dict(line.split("|") for line in on_primary(
        "SELECT event_id, status FROM webhook_deliveries "
        f"WHERE tenant_id = {tenant_row}").splitlines())
    found["hooks"] = webhook_figures(receiver.snapshot(), stored, outages)
    subscriptions = period_ends(cluster, tenant_row)
    billed = {}
    for line in on_primary(
            "SELECT subscription_id, (extract(epoch FROM period_start) * 1000000)::bigint, "
            "(extract(epoch FROM period_end) * 1000000)::bigint FROM payment_requests "
            f"WHERE tenant_id = {tenant_row} AND type = 'SUBSCRIPTION' "
            "AND jsonb_array_length(line_items) > 0").splitlines():
        sub, start, end = map(int, line.split("|"))
        billed.setdefault(sub, []).append((start, end))
    last_sweep = (int(acked["sweep"].timestamp() * 1000000)
                  if acked["sweep"] else None)
    found["billing"] = billing_figures(s.initial_ends, subscriptions, billed, last_sweep)
    found["call_states"] = dict(line.split("|") for line in on_primary(
        "SELECT status, count(*) FROM calls GROUP BY status").splitlines())
    return found


def billing_figures(initial_ends, subscriptions, requests, last_sweep):
    """Each subscription's sweep-issued requests must chain from the period
    end it had before the load to the one it has now (no period billed twice,
    none skipped), and its period must have passed the last acknowledged
    sweep's time. Times are epoch microseconds."""
    billed_twice = skipped = behind = 0
    for sub, end_before in initial_ends.items():
        periods = sorted(requests.get(sub, []))
        starts = [start for start, _ in periods]
        billed_twice += len(starts) - len(set(starts))
        at = end_before
        for start, end in periods:
            if start != at:
                skipped += 1
            at = end
        if at != subscriptions[sub]:
            skipped += 1
        if last_sweep is not None and subscriptions[sub] <= last_sweep:
            behind += 1
    return {"subscriptions": len(initial_ends),
            "periods_billed": sum(len(v) for v in requests.values()),
            "billed_twice": billed_twice, "chain_breaks": skipped,
            "behind_last_sweep": behind}
