"""The drills on PostgreSQL going away under the service: stopped for 5 s
mid-load, and crashed (immediate stop) and restarted three times."""

import time

from vcs_tools.api import new_campaign, phones, wait_total
from vcs_tools.drills.writers import LeadWriters
from vcs_tools.log import drill_log as log

IMPORT_TOTAL = 50_000
CRASHES = 3


# PostgreSQL stopped for 5 s under mixed load with an import running.
def database_outage(drills):
    campaign, accepted = start_import(drills)
    writers = LeadWriters(drills.dep.public_port, drills.key, campaign, "+1642", 4, 10,
                          pause=0.02)
    probe = drills.probe.start()
    writers.start()
    time.sleep(2)
    down_at, stopped, up_at = stop_database(drills)
    time.sleep(5)
    writers.stop()
    probe.stop()
    figures, lost, ok = outage_checks(drills, campaign, accepted, writers,
                                      (down_at, stopped, up_at))
    drills.record("database stopped 5 s mid-load", "pg_ctl stop -m fast / start", figures,
                  "nothing" if lost == 0 else f"{lost} leads",
                  drills.alive() and lost == 0 and ok)


def start_import(drills):
    """A campaign of its own with an import of IMPORT_TOTAL leads accepted
    (it runs through the outage)."""
    campaign = new_campaign(drills.api, "outage")
    accepted = drills.api.ok("POST", f"/api/v2/voice-campaigns/{campaign}/leads/bulk",
                             phones("+1641", 0, IMPORT_TOTAL))
    return campaign, accepted


def stop_database(drills):
    """PostgreSQL stopped (fast), 5 s down, started: (when asked to stop,
    stopped, up again) in monotonic seconds."""
    dep = drills.dep
    down_at = time.monotonic()
    dep.pg(f'pg_stop "{dep.pgdir}"')
    stopped = time.monotonic()
    time.sleep(5)
    dep.pg(f'pg_start "{dep.pgdir}" {dep.pg_port}')
    return down_at, stopped, time.monotonic()


def outage_checks(drills, campaign, accepted, writers, times):
    """The answers while PostgreSQL was down, how soon /healthz said so and
    writes came back, and every acknowledged single lead and every imported
    one listed once each: (figures, leads lost, whether the answers held)."""
    down_at, stopped, up_at = times
    samples = writers.samples
    outage = [s for s in samples if stopped <= s[0] <= up_at]
    outage_statuses = {}
    for s in outage:
        outage_statuses[str(s[1])] = outage_statuses.get(str(s[1]), 0) + 1
    health_down = [s for s in drills.probe.samples
                   if s[0] == "health" and s[1] == 503 and s[3] >= down_at]
    detect_ms = round(1000 * (health_down[0][3] - down_at)) if health_down else None
    recovered = [s for s in samples if s[0] >= up_at and s[1] == 201]
    recover_ms = round(1000 * (recovered[0][0] - up_at)) if recovered else None
    api = drills.api
    wait_total(api, campaign, IMPORT_TOTAL + len(writers.acked), timeout=180)
    # Every acknowledged single lead and every imported one, once each.
    listed = api.ok("GET", f"/api/v2/voice-campaigns/{campaign}/leads/list?limit=1")
    total = listed["page_info"]["total_count"]
    job = api.ok("GET", f"/api/v2/voice-campaigns/{campaign}/leads/imports/"
                        f"{accepted['import_id']}")
    lost = IMPORT_TOTAL + len(writers.acked) - total
    figures = {"outage_s": round(up_at - stopped, 1),
               "answers_during_outage": outage_statuses,
               "slowest_answer_during_outage_ms":
                   round(1000 * max(s[2] for s in outage)) if outage else None,
               "json_during_outage_pct":
                   round(100.0 * sum(1 for s in outage if s[3]) / len(outage), 1)
                   if outage else None,
               "health_503_after_ms": detect_ms, "first_write_after_restart_ms": recover_ms,
               "import": f"{job['status']} {job['inserted']}/{IMPORT_TOTAL}",
               "acknowledged_leads": len(writers.acked), "leads_listed": total}
    no_500 = not any(k.startswith("50") and k != "503" for k in outage_statuses)
    return figures, lost, (no_500 and job["status"] == "done" and recover_ms is not None
                           and "None" not in outage_statuses)


# PostgreSQL crashes (immediate stop: no shutdown, connections cut
# mid-transaction) and restarts at once, under writes and reads: every
# answer is 2xx or 503, never 500 (a connection that failed inside a
# transaction must not be reused), and every acknowledged write is there.
def database_crash(drills):
    campaign = new_campaign(drills.api, "crash")
    load = LeadWriters(drills.dep.public_port, drills.key, campaign, "+1643", 6, 10,
                       readers=2).start()
    for _ in range(CRASHES):
        time.sleep(2)
        crash(drills)
    time.sleep(3)
    load.stop()
    listed = drills.api.ok("GET", f"/api/v2/voice-campaigns/{campaign}/leads/list?limit=1")
    total = listed["page_info"]["total_count"]
    # More listed than acknowledged: writes that committed while their
    # answer was a 503 (outcome unknown to the client), not a loss.
    lost = max(0, len(load.acked) - total)
    statuses = load.statuses
    figures = {"crashes": CRASHES, "answers": statuses, "acknowledged_leads": len(load.acked),
               "leads_listed": total}
    bad = {k: n for k, n in statuses.items() if k.startswith("5") and k != "503"}
    if bad:
        log_service_errors(drills.dep)
    drills.record(f"PostgreSQL crashed and restarted {CRASHES} times under writes",
                  "pg_ctl stop -m immediate / start", figures,
                  "nothing" if lost == 0 else f"{lost} leads",
                  drills.alive() and lost == 0 and not bad and "None" not in statuses)


def crash(drills):
    """PostgreSQL stopped immediately and started again at once."""
    dep = drills.dep
    # Backends of the crashed server may hold its port for a moment.
    dep.pg(f'_pg_run pg_ctl stop -D "{dep.pgdir}/data" -m immediate -s; '
           f'for i in $(seq 20); do pg_start "{dep.pgdir}" {dep.pg_port} '
           f'2>/dev/null && exit 0; sleep 0.5; done; exit 1')


def log_service_errors(dep):
    """The service log's first 20 lines that say error."""
    dep.log.flush()
    with open(dep.log.name) as f:
        errors = [line.rstrip() for line in f if "error" in line.lower()]
    for line in errors[:20]:
        log(f"service: {line}")
