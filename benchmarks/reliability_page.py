"""docs/reliability.md from benchmarks/results/drills.json (scripts/reliability
--json) in the prose of benchmarks/templates/reliability.md. Each drill's
row is its description and a formatter of its figures, both keyed by its name
in scripts/reliability's DRILLS."""

import re

from pages import Unknown, command, describe, fill, machine, ms, num, statuses, table, took, when

MODULE = "reliability_page"


def pct(value):
    return "–" if value is None else f"{value:g}%"


def answers(counts):
    """Status counts; None (no answer: a socket error or time-out) named."""
    return statuses({("no answer" if k in ("None", "none") else k): n
                     for k, n in (counts or {}).items()})


def rss(text):
    return text.replace(" -> ", " → ") + " MB"


def span(values, unit=" s"):
    values = [v for v in values if v is not None]
    if not values:
        return "–"
    lo, hi = min(values), max(values)
    return f"{lo:g}{unit}" if lo == hi else f"{lo:g}–{hi:g}{unit}"


def probe(f):
    return (f"a client from another address: {pct(f['probe_api_ok_pct'])} of its reads "
            f"answered, p99 {ms(f['probe_api_p99_ms'])} ms; `/healthz` "
            f"{pct(f['probe_health_ok_pct'])} answered")


def slow_body(f):
    return (f"{num(f['attack_connections'])} attack connections, at most "
            f"{num(f['held_by_attacker_max'])} held at once; {probe(f)}")


def slowloris(f):
    return f"{slow_body(f)}; RSS {rss(f['rss_mb'])}"


def malformed_flood(f):
    return (f"{num(f['requests'])} requests: {answers(f['answers'])}; {probe(f)}; "
            f"peak RSS {num(f['peak_rss_mb'])} MB")


def overload(f):
    return (f"{num(f['served_per_s'])} req/s served, {num(f['shed_or_failed_per_s'])} req/s "
            f"shed with 503 and `Retry-After`; `/healthz` {pct(f['probe_health_ok_pct'])} "
            f"answered (p99 {ms(f['probe_health_p99_ms'])} ms), public reads "
            f"{pct(f['probe_api_ok_pct'])}; RSS {rss(f['rss_mb'])}")


def database_outage(f):
    health = f["health_503_after_ms"]
    return (f"PostgreSQL down {f['outage_s']} s; writes during it: "
            f"{answers(f['answers_during_outage'])} ({pct(f['json_during_outage_pct'])} JSON), "
            f"slowest {num(f['slowest_answer_during_outage_ms'])} ms; `/healthz` 503 after "
            f"{'–' if health is None else f'{health / 1000:.2f}'} s; first write "
            f"{num(f['first_write_after_restart_ms'])} ms after the restart; import "
            f"{imported(f['import'])}; {num(f['acknowledged_leads'])} acknowledged writes, "
            f"{num(f['leads_listed'])} leads listed with the import's")


def imported(text):
    """"done 50000/50000" -> "done, 50,000 of 50,000 leads"."""
    m = re.fullmatch(r"(\w+) (\d+)/(\d+)", text)
    return f"{m[1]}, {num(int(m[2]))} of {num(int(m[3]))} leads" if m else text


def database_crash(f):
    return (f"{f['crashes']} crashes: {answers(f['answers'])}; "
            f"{num(f['acknowledged_leads'])} acknowledged leads, {num(f['leads_listed'])} "
            "listed")


def sqlmap(f):
    found = ", ".join(f["injectable"]) or "nothing injectable"
    return (f"{f['targets']} targets, {num(f['requests_sent'])} requests in "
            f"{f['minutes']:g} min: {found}")


def victim(f):
    a, u, after = f["victim_alone"], f["victim_under_attack"], f["victim_after"]
    ratio = "–" if f["p99_ratio"] is None else f"{f['p99_ratio']:g}"
    return (f"victim errors {num(f['victim_errors'])}; victim p50 {ms(a['p50_ms'])} ms alone, "
            f"{ms(u['p50_ms'])} ms under attack; p99 {ms(a['p99_ms'])} → {ms(u['p99_ms'])} ms "
            f"(ratio {ratio}), {ms(after['p99_ms'])} ms after, back to normal "
            f"{num(f['recovery_ms'])} ms after the attack; the attack's requests answered "
            f"{answers(f['attacker_answers'])}")


def neighbour(f):
    return victim(f)


def value_bomb(f):
    return (f"{victim(f)}; attacks answered at p50 {ms(f['attack_answer_p50_ms'])} ms (the "
            f"time to send the bytes); service RSS {rss(f['rss_mb'])}")


def slow_dns(f):
    if "skipped" in f:
        return f"skipped: {f['skipped']}"
    hooks = f["victim_webhooks"]
    phase = lambda p: f"{ms(hooks[p]['p50_ms'])} / {ms(hooks[p]['p99_ms'])} ms"
    sent = sum(h["sent"] for h in hooks.values())
    return (f"victim webhooks, p50 / p99: {phase('alone')} alone, {phase('under_attack')} "
            f"under attack, {phase('after')} after; {num(sent)} sent, "
            f"{num(f['victim_webhooks_not_delivered'])} not delivered; "
            f"{num(f['slow_name_queries'])} lookups of the attacker's names left unanswered; "
            f"{victim(f)}")


def flood(f):
    return f"{victim(f)}; attack answered at p50 {ms(f['attack_answer_p50_ms'])} ms"


def rolling_restart(f):
    r = f["restarts"]
    failed = sum((f["mixed_failed"] or {}).values())
    return (f"{num(f['mixed_requests'])} mixed requests, **{num(failed)} failed**; lead "
            f"writes {answers(f['lead_writes'])}, {num(f['acknowledged_leads'])} acknowledged, "
            f"{num(f['leads_listed'])} listed; each node stopped in "
            f"{span([x['stop_s'] for x in r])} and was ready again "
            f"{span([x['back_ready_s'] for x in r])} after its SIGTERM")


def primary_changes(f, planned):
    o, ack, new = f["outages"], f["acknowledged"], f["on_the_new_primary"]
    b, w = f["billing_sweeps"], f["webhooks"]
    each = " / ".join(f"{x['writes_back_s']:g}" for x in o if x["writes_back_s"] is not None)
    switches = " / ".join(f"{x['switch_s']:g}" for x in o if x.get("switch_s") is not None)
    # patronictl returns once the switch is done: writes go on at once after it.
    back = "writes went on as soon as each switch returned" if planned and all(
        x["writes_back_s"] == 0 for x in o) else f"writes back **{each} s** after each"
    switch = f"each switch took {switches} s; " if planned else ""
    return (f"{switch}{back}; node 0 not ready from "
            f"{span([x['not_ready_after_s'] for x in o])} after each, ready again from "
            f"{span([x['ready_again_after_s'] for x in o])}; answers {answers(f['answers'])}; "
            f"on the new primary: {num(new['adds'])} leads listed of "
            f"{num(ack['adds'])} acknowledged, {num(new['bulk_leads'])} of "
            f"{num(ack['bulk_leads'])} bulk-added leads, update {num(new['update'])} (last "
            f"acknowledged {num(ack['last_update'])}), payment update "
            f"{num(new['payment_update'])} (last acknowledged "
            f"{num(ack['last_payment_update'])}); {num(f['calls'])} calls, "
            f"**{num(f['calls_placed_twice'])} placed twice**; billing: "
            f"{num(b['periods_billed'])} periods billed, {num(b['billed_twice'])} twice, "
            f"{num(b['chain_breaks'])} skipped, {num(b['behind_last_sweep'])} subscriptions "
            f"behind the last acknowledged sweep; webhooks: {num(w['events'])} events, "
            f"{num(w['delivered'])} delivered, {num(w['not_delivered'])} not, "
            f"{num(w['received_not_stored'])} received that the outbox lacks, "
            f"{num(w['received_twice'])} received twice "
            f"({num(w['twice_away_from_a_loss'])} of them away from a loss); the lost member "
            "rejoined as the synchronous standby "
            f"{sum(1 for x in o if x['standby_again'])} of {len(o)} times")


def retention_soak(f):
    if "rows_at_warm_up" not in f:
        return f"{f.get('samples', 0)} samples: too few to judge"
    return (f"{f['seconds']} s with every retention at {f['retention_s']} s: calls, webhook "
            f"deliveries and events held {num(f['rows_at_warm_up'])} rows at "
            f"{2 * f['retention_s']} s, at most {num(f['rows_max_after'])} after, "
            f"{num(f['rows_last'])} at the end; on disk {f['mb_at_warm_up']:g} MB at "
            f"{2 * f['retention_s']} s, at most {f['mb_max_after']:g} MB after")


def restore(f):
    return (f"{num(f['acknowledged_before_target'])} writes acknowledged before the target "
            f"time: {num(f['found'])} found, {num(f['missing'])} missing; "
            f"{num(f['acknowledged_after_target_plus_1s'])} acknowledged over a second after "
            f"it: {num(f['after_target_found'])} found; full backup of a "
            f"{f['database_size']} database under writes in {f['backup_s']:g} s, restored in "
            f"{f['restore_s']:g} s, promoted {f['restore_to_promoted_s']:g} s after the restore "
            f"began; the restored node answered {f['public_read_status']}, listing "
            f"{num(f['leads_listed'])} of {num(f['leads_in_table'])} leads; a keyed add's "
            "sealed answer " + ("replayed" if f["sealed_answer_replayed"] else
                                "**not replayed**"))


def failure_breaker(f):
    return (f"{f['provider']}: {f['healthy_calls']} calls answered, then every call refused: "
            f"{f['failing_calls_sent']} refused calls sent before the campaign paused "
            f"(window {f['window']} calls, {f['lines']} lines), "
            f"{f['seconds_first_failure_to_pause']:g} s after the first; status "
            f"{f['status']}, pause_reason `{f['pause_reason']}`, "
            f"{f['campaign_paused_events']} campaign.paused event; "
            f"{f['leads_not_called']:,} leads left uncalled")


def sign_in_burst(f):
    parts = []
    for key, what in (("one_name_one_address", "one e-mail from one address"),
                      ("many_names_one_address", "40 e-mails from one address"),
                      ("one_name_many_addresses", "one e-mail from 40 addresses")):
        b = f[key]
        parts.append(f"{what}: {answers(b['answers'])} in {num(b['wall_ms'])} ms")
    return "; ".join(parts) + f"; {probe(f)}"


def stream_slots(f):
    ended = f["lifetime_stream_ended_after_s"]
    return (f"another site's page with the cookie: {answers(f['cross_site_cookie'])}; the "
            f"console's own pages: {answers(f['own_page_cookie'])}; the tenant's key beside "
            f"them: {answers(f['api_key'])} ({f['held_at_once']} held at once); a key's stream "
            f"with a {f['lifetime_ms'] / 1000:g} s lifetime ended after "
            f"{'–' if ended is None else f'{ended:g} s'}; {probe(f)}")


# The attack drills' victim is described once, above the table.
VICTIM = "beside the victim's paced mix"

# scripts/reliability's drills: what each does ({duration} from the run's
# settings), and the formatter of its figures.
DRILLS = {
    "slowloris": ("Slow headers (slowloris) from one address, sent by `slowhttptest -H -c 4000 "
                  "-r 800` for {duration} s; the per-client limit is 1,000 connections, the "
                  "rest are answered 503 and closed", slowloris),
    "slow_body": ("Slow request bodies from one address (`slowhttptest -B -c 2000`) for "
                  "{duration} s; each is cut at `read-timeout-ms`", slow_body),
    "malformed_flood": ("Malformed requests, 16 threads for {duration} s: random bytes, bad "
                        "request lines, NUL bytes, 20 KB headers, negative and huge "
                        "Content-Length, bad chunking, truncated JSON, bad ids",
                        malformed_flood),
    "overload": ("Overload: 3,000 connections of 200-lead list requests (`wrk -c3000`, no "
                 "per-client limit) for {duration} s; passes when `/healthz` keeps being "
                 "answered and the service's peak RSS stays under four times its RSS before "
                 "(200 MB at least)", overload),
    "database_outage": ("PostgreSQL stopped for 5 s (`pg_ctl stop -m fast`, then started) "
                        "under 4 lead writers and a 50,000-lead import", database_outage),
    "database_crash": ("PostgreSQL crashed (`pg_ctl stop -m immediate`) and restarted at "
                       "once, again and again, under 6 lead writers and 2 readers",
                       database_crash),
    "sqlmap": ("SQL injection (`sqlmap --level=2 --risk=1`) on the query parameters of three "
               "list routes and two JSON bodies", sqlmap),
    "neighbour": ("Noisy neighbour: " + VICTIM + "; the attacker tenant, in another process, "
                  "sends client creates with 25 users, bulk removes of 100,000 items, "
                  "1.5-million-item (51 MB) bulk adds and 8 unpaced list floods (a new "
                  "connection per request); its heavy requests may run on past {duration} s",
                  neighbour),
    "value_bomb": ("Value bombs from another tenant: 4 threads of 60 MB bulk adds whose one "
                   "lead holds a 30-million-element array, 2 of 70,000 small arrays (4.5 "
                   "million values); " + VICTIM + "; passes when the service's peak RSS stays "
                   "within 512 MB of its RSS before", value_bomb),
    "slow_dns": ("A name server that never answers (UDP, on 127.0.0.77, in `/etc/resolv.conf` "
                 "for the drill; needs root): another tenant's `webhook_url` moved to new names "
                 "under it, its test events posted and 200 deliveries a second added to its "
                 "outbox; the victim also posts 10 test events a second to a name that "
                 "resolves; " + VICTIM, slow_dns),
    "header_spelling_flood": ("Header spellings and junk keys from another tenant: 8 threads "
                              "sending its key spelled five ways, 8 sending random and "
                              "near-miss keys, unpaced, a new connection per request; " +
                              VICTIM, flood),
    "taken_email_flood": ("Client creates whose 25 e-mails are taken, from another tenant, 8 "
                          "threads, unpaced (refused before any password is hashed); " + VICTIM,
                          flood),
    "rolling_restart": ("Rolling restart: 3 nodes behind HAProxy (`config/haproxy-cluster.cfg`: "
                        "`/readyz` checked every 1 s, down after 2, `retries 3`, `option "
                        "redispatch`, L7 retries for GET/HEAD/OPTIONS only), each stopped with "
                        "SIGTERM and started again in turn under the mixed dialer profile (wrk, "
                        "16 connections) and 4 lead writers", rolling_restart),
    "failover": ("The database primary lost (Patroni and PostgreSQL SIGKILLed, as a machine "
                 "lost) {kills} times in a row; 2 nodes on the highly available database "
                 "(`scripts/lib/ha.sh`: 3 etcd members, a Patroni primary with a synchronous "
                 "standby, HAProxy's leader port) under 3 lead writers, a bulk adder (25 leads a "
                 "request), a v1 updater, a payment updater, billing sweeps on both nodes, dial "
                 "rounds and the nodes' own dialing (4 lines, simulated calls) with webhooks to "
                 "a receiver on loopback", lambda f: primary_changes(f, planned=False)),
    "switchover": ("A planned switchover (`patronictl switchover --leader … --force`) {kills} "
                   "times in a row, with the same set-up and load as the failover",
                   lambda f: primary_changes(f, planned=True)),
    "retention_soak": ("Tables that only grow, under a steady load: the dialer calling 20 new "
                       "leads a second (fast simulated calls, webhooks to a closed port), every "
                       "retention at 60 s, swept every 5 s "
                       "(`tools/vcs_tools/drills/retention_soak.py`)",
                       retention_soak),
    "restore": ("A full pgBackRest backup taken under writes, the data directory emptied, "
                "restored to a point in time (`tools/vcs_tools/drills/restore.py`; "
                "[ops/backup-restore.md](ops/backup-restore.md))", restore),
    "failure_breaker": ("A live provider that starts failing, once per vendor shape (provider_a "
                        "as Vapi, provider_d as Bland): a fake of its API answers its first "
                        "calls (and posts their end-of-call reports as the vendor does), then "
                        "answers every call 500; a campaign with the failure breaker at its "
                        "defaults (the last 20 ended calls, 50%) dials 200 leads through 5 "
                        "lines (`tools/vcs_tools/drills/failure_breaker.py`)", failure_breaker),
    "sign_in_burst": ("Sign-in bursts: 40 wrong passwords at once for one e-mail from one address, "
                      "for 40 e-mails from one address, and for one e-mail from 40 addresses "
                      "(`tools/vcs_tools/drills/sessions.py`)", sign_in_burst),
    "stream_slots": ("Event streams opened with a member's cookie by another site's page (20 at "
                     "once) and by the console's own pages, the tenant's key beside them, and a "
                     "key's stream on a node whose streams last 3 s "
                     "(`tools/vcs_tools/drills/sessions.py`)", stream_slots),
}


def result(passed):
    return "skipped" if passed is None else "pass" if passed else "**fail**"


def drills_table(doc):
    settings = doc["run"]["settings"]
    ctx = {"duration": settings["duration_s"], "kills": settings["kills"]}
    rows = []
    for r in doc["results"]:
        if r.get("name") is None:
            raise Unknown(f"drills.json: drill {r['drill']!r} has no name (an older "
                          "scripts/reliability wrote it)")
        what, figures = describe(DRILLS, r["name"], "drill", MODULE)
        rows.append([what.format(**ctx), f"`{r['name']}`: {r['tool']}", figures(r["figures"]),
                     r["lost"], result(r["passed"])])
    return table(["Fault or attack", "Drill and tool", "Measured", "Lost", "Result"], rows)


def render(docs):
    doc = docs["drills"]
    run = doc["run"]
    s = run["settings"]
    mode = ("`--ci`: pass or fail on errors and losses only" if s["ci"] else
            "without `--ci`: the attack drills also fail on their timing goals")
    return fill("reliability.md", {
        "drills_run": (f"`{command('scripts/reliability', run['argv'])}`, measured "
                       f"{when(run['started'])} in {took(run)} on {machine(run)}; "
                       f"{s['duration_s']} s of attack a drill, {mode}."),
        "drills": drills_table(doc),
    })
