"""failover and switchover: two nodes on the highly available database
(ha_cluster.py) under steady writes and dialing while the primary's machine
is lost (its Patroni and PostgreSQL SIGKILLed), or the leader is moved on
purpose (patronictl switchover), several times in a row. Every
acknowledged write must be on the new primary, no call placed twice, and
while there is no primary the nodes answer 503, never another 5xx."""

import os
import subprocess
import time
import types

from vcs_tools.api import (Api, new_campaign, new_client, new_payment_request, new_product,
                           new_provider, row_id, subscriptions, wait_total)
from vcs_tools.drills.ha_cluster import HaCluster
from vcs_tools.drills.primary_checks import check, period_ends
from vcs_tools.drills.primary_load import Load
from vcs_tools.drills.webhooks import WebhookReceiver
from vcs_tools.log import drill_log as log


# The primary lost: no failed write beyond the 503s while there is none,
# nothing lost.
def failover(drills):
    primary_changes(drills, planned=False)


# The same, the leader moved on purpose (patronictl switchover): no
# failed write beyond the 503s of the switch, nothing lost.
def switchover(drills):
    primary_changes(drills, planned=True)


def primary_changes(drills, planned):
    kills = 1 if drills.args.ci else drills.args.kills
    cluster = HaCluster(drills.dep, planned)
    log("starting etcd, Patroni and HAProxy")
    cluster.start()
    receiver = WebhookReceiver()
    cluster.start_nodes()
    try:
        cluster.wait_nodes()
        s = set_up(drills, cluster, receiver)
        load = Load(cluster.ports, drills.dep.token, s)
        outages = [lose_primary(cluster, load, planned, k) for k in range(kills)]
        time.sleep(2)
        load.stop()
        found = check(cluster, s, load, outages, receiver)
    finally:
        cluster.stop()
        receiver.close()
    report(drills, planned, kills, outages, load, found)


def set_up(drills, cluster, receiver):
    """A tenant with campaigns for single adds, bulk adds and updates, a
    campaign dialing on a simulated provider (webhooks to the receiver),
    and five clients billed on a product, one with a payment request."""
    ports, token = cluster.ports, drills.dep.token
    op = Api(f"http://127.0.0.1:{ports[0][1]}", token)
    tenant = op.ok("POST", "/admin/v1/tenants", {"name": "failover", "plan": "ENTERPRISE"})
    s = types.SimpleNamespace(key=tenant["api_key"]["key"], tenant_id=tenant["tenant_id"])
    s.tenant_row = row_id(s.tenant_id)
    api = Api(f"http://127.0.0.1:{ports[0][0]}", s.key)
    s.adds = new_campaign(api, "failover-adds")
    s.bulks = new_campaign(api, "failover-bulk")
    s.updated = new_campaign(api, "failover-updates")
    api.ok("POST", "/api/v2/webhook-secret", {})
    api.ok("POST", f"/api/v2/voice-campaigns/{s.updated}/leads",
           {"phone_number": "+16470000000"})
    s.dialed = dialing_campaign(api, receiver)
    # Clients billed on a product, one with a payment request that the
    # payment writer moves between PAID and PENDING.
    new_product(op, s.tenant_id, "prod_drill", "Drill plan", 100, "price_drill")
    client = billed_client(api, 0)
    for n in range(1, 5):
        billed_client(api, n)
    # Each subscription's period end before the sweeps (epoch µs).
    s.initial_ends = period_ends(cluster, s.tenant_row)
    s.payment = new_payment_request(op, client, subscriptions(api, client)[0]["id"])
    return s


def dialing_campaign(api, receiver):
    """An ACTIVE campaign on a provider of four lines, its webhooks to the
    receiver."""
    provider = new_provider(api, "drill", 4)
    dialed = api.ok("POST", "/api/v2/voice-campaigns",
                    {"name": "failover-dial", "assistant_id": "a", "phone_number_id": "p",
                     "tenant_voice_provider_id": provider,
                     "webhook_url": receiver.url})["data"]["campaign_id"]
    # 555-1xxx numbers pass libphonenumber's validity check: enough
    # leads to keep four lines busy through every loss.
    api.ok("POST", f"/api/v2/voice-campaigns/{dialed}/leads/bulk",
           [{"phone_number": f"+1{area}555{1000 + i:04d}"}
            for area in (415, 212) for i in range(1000)])
    wait_total(api, dialed, 2000, timeout=60)
    api.ok("PATCH", f"/api/v2/voice-campaigns/{dialed}/status", {"status": "ACTIVE"})
    return dialed


def billed_client(api, n):
    return new_client(api, f"drill {n}", f"drill{n}@failover.example", "drill-pass", [],
                      ("prod_drill", "price_drill"))


def lose_primary(cluster, load, planned, k):
    """The k-th loss (or switchover) 3 s into the load: how long until
    writes were acknowledged again, the lost member back as the synchronous
    standby, and node 0's readiness meanwhile."""
    time.sleep(3)
    leader = cluster.leader()
    if planned:
        killed = time.monotonic()
        config = os.path.join(cluster.ha(f'pg_location "{cluster.dir}/{leader}"'),
                              "patroni.yml")
        subprocess.run(["patronictl", "-c", config, "switchover", "--leader", leader,
                        "--force"], check=True, capture_output=True)
        switch_s = round(time.monotonic() - killed, 1)
        log(f"  switchover {k + 1}: {leader} handed over in {switch_s} s")
    else:
        cluster.ha(f'ha_kill_member "{cluster.dir}" {leader}')
        killed = time.monotonic()
        log(f"  kill {k + 1}: {leader} lost")
    back = None
    while back is None and time.monotonic() - killed < 90:
        time.sleep(0.1)
        done = load.writes_done_after(killed)
        back = min(done) - killed if done else None
    # The lost member comes back as the standby before the next loss
    # (after a switchover it is one already, or about to be).
    if not planned:
        cluster.ha(f'ha_start_member "{cluster.dir}" {leader}')
    rejoined = False
    for _ in range(600):
        try:
            rejoined = cluster.on_primary("SELECT count(*) FROM pg_stat_replication "
                                          "WHERE sync_state = 'sync'") == "1"
        except subprocess.CalledProcessError:
            rejoined = False
        if rejoined:
            break
        time.sleep(0.1)
    # Readiness: when node 0 stopped reporting ready, and when it was
    # ready again.
    after = [(t, st) for t, st in list(load.readiness) if t > killed]
    down = next((t for t, st in after if st != 200), None)
    up = next((t for t, st in after if down is not None and t > down and st == 200), None)
    outage = {"killed_at": killed, "lost": leader, "now_leading": cluster.leader(),
              **({"switch_s": switch_s} if planned else {}),
              "not_ready_after_s": round(down - killed, 1) if down else None,
              "ready_again_after_s": round(up - killed, 1) if up else None,
              "writes_back_s": round(back, 1) if back is not None else None,
              "standby_again": rejoined}
    log(f"  {'switchover' if planned else 'kill'} {k + 1}: writes back after "
        f"{outage['writes_back_s']} s, {leader} synchronous standby again: {rejoined}")
    return outage


def report(drills, planned, kills, outages, load, found):
    """The figures, what was lost and the verdict."""
    acked, billing, hooks = load.acked, found["billing"], found["hooks"]
    for o in outages:
        del o["killed_at"]
    lost_adds = max(0, len(acked["adds"]) - found["adds"])
    lost_bulk = max(0, len(acked["bulk"]) - found["bulk"])
    lost_update = acked["update"] > found["seq"]
    lost_payment = acked["payment"] > found["payment_seq"]
    bad = {k: n for k, n in load.answers.items() if k != "503" and not k.startswith(("2",))}
    figures = {"kills": kills, "outages": outages, "answers": load.answers,
               "acknowledged": {"adds": len(acked["adds"]), "bulk_leads": len(acked["bulk"]),
                                "last_update": acked["update"],
                                "last_payment_update": acked["payment"]},
               "on_the_new_primary": {"adds": found["adds"], "bulk_leads": found["bulk"],
                                      "update": found["seq"],
                                      "payment_update": found["payment_seq"]},
               "calls": found["calls"], "calls_by_status": found["call_states"],
               "calls_placed_twice": found["double_calls"],
               "billing_sweeps": {"last_acknowledged": acked["sweep"].isoformat()
                                  if acked["sweep"] else None, **billing},
               "webhooks": hooks}
    lost = []
    if lost_adds:
        lost.append(f"{lost_adds} leads")
    if lost_bulk:
        lost.append(f"{lost_bulk} bulk leads")
    if lost_update:
        lost.append("an update")
    if lost_payment:
        lost.append("a payment update")
    if billing["behind_last_sweep"]:
        lost.append(f"{billing['behind_last_sweep']} subscriptions' acknowledged sweep")
    if hooks["not_delivered"] or hooks["delivered_never_received"]:
        lost.append(f"{hooks['not_delivered'] + hooks['delivered_never_received']} webhooks")
    # Effects twice: a period billed twice or skipped, a webhook sent
    # again away from a loss, or one sent that the outbox never held.
    doubled = (billing["billed_twice"] + billing["chain_breaks"] +
               hooks["twice_away_from_a_loss"] + hooks["received_not_stored"])
    drills.record(f"Primary PostgreSQL {'switched over' if planned else 'lost'} {kills} times "
                  "under writes and dialing",
                  "Patroni + etcd + HAProxy; " + ("patronictl switchover" if planned else
                                                  "Patroni and PostgreSQL SIGKILLed"), figures,
                  ", ".join(lost) or "nothing",
                  not lost and not bad and found["calls"] > 0 and found["double_calls"] == 0
                  and not doubled and billing["periods_billed"] > 0 and hooks["delivered"] > 0
                  and all(o["writes_back_s"] is not None and o["standby_again"]
                          for o in outages))
