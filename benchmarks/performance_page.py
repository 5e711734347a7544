"""docs/performance.md from benchmarks/results/: the runs of benchmarks/run
(suite, side_by_side, steps, soak, scale) and micro_benchmarks (micro), in
the prose of benchmarks/templates/performance.md. Every row's description
comes from the tables here, keyed by the name the JSON gives it."""

from pages import (Unknown, command, describe, fill, machine, ms, num, plural, ratio, sig,
                   table, took, when)

MODULE = "performance_page"

# benchmarks/run's scenarios as the suite records them ({…} from the run's
# settings and the row's own fields).
SCENARIOS = {
    "baseline_static": "baseline: `static_server` (2 threads) answering a static body: the "
                       "machine's ceiling for an HTTP answer",
    "baseline_pgbench_select": "baseline: `pgbench -S -M prepared -c 8`: the database's ceiling "
                               "for one primary-key read",
    "baseline_pgbench_insert": "baseline: `pgbench -M prepared -c 8` with a one-row `INSERT`: "
                               "the ceiling for one committed write",
    "health": "`GET /healthz`, answered on the I/O thread from the health probe's last round "
              "trip",
    "list_page1": "lead list, page 1 (50 leads) of a campaign of {leads} leads",
    "list_deep": "the same at offset {offset}",
    "bulk_add": "one bulk request of {bulk} leads into a new campaign, until all are listed",
    "bulk_add_10k": "10,000 leads with names, e-mail and custom fields (1.7 MB) added to the "
                    "list campaign, until listed",
    "update_batched": "v1 lead updates on the hot campaign, one of {hot_leads} leads (group "
                      "commit on)",
    "update_unbatched": "the same with group commit off (`VCS_BATCH_SIZE=1`)",
    "bulk_update_100": "bulk updates of {leads_per_request} leads a request, 16 connections",
    "payment_patch": "`PATCH …/payment-requests/{{id}}/update` over {payment_requests} "
                     "subscriptions, each through its subscription actor",
    "client_detail": "client detail of a client holding the hot campaign",
    "mixed": "the dialer's mix ({mix}) on the hot campaign",
    "actors_10k": "RSS with {actors} campaign actors awake",
    "dial_rules": "dial rounds of {batch} calls with the calling rules applied (a TELEMARKETING "
                  "tenant) beside none: database time per call, on / off",
    "dialer_1000": "{campaigns} ACTIVE campaigns dialing simulated calls (20 ms ring, 100 ms "
                   "call): calls placed",
    "nodes_1": "the mixed profile through HAProxy, 1 node",
    "nodes_2": "the same, 2 nodes on the same two cores",
    "nodes_3": "the same, 3 nodes",
    "startup": "start-up to the first healthy `/healthz`",
    "idle_rss": "RSS right after start",
}
BASELINES = ("baseline_static", "baseline_pgbench_select", "baseline_pgbench_insert")

MIX = {"v1_update": "v1 call-outcome updates", "list": "lead list page 1",
       "campaign_read": "campaign reads", "add_lead": "new leads",
       "client_detail": "client detail reads"}

# The implementations of the side-by-side runs.
IMPLEMENTATIONS = {
    "service": "this service",
    "node-fastify": "Node.js 20, fastify 5 and node-postgres; a `node:cluster` primary and 2 "
                    "workers",
    "django-drf": "Django 3.2 and Django REST framework 3.14 under gunicorn, 2 sync workers",
    "ceiling": "a minimal C++ (Beast) server answering `GET /db` with one prepared primary-key "
               "read: the machine's limit for this kind of work",
}
SIDE_LISTS = {"list_page1": "lead list, page 1", "list_deep": "lead list at offset {deep_offset}",
              "ceiling_db": "`GET /db` (one primary-key read)"}

# The scale run's routes.
ROUTES = {
    "campaign_read": "campaign read (with its lead counts)",
    "campaign_list": "campaign list, page 1",
    "list_page1": "lead list, page 1",
    "list_deep": "lead list at offset N/2",
    "lead_by_phone": "lead by phone number",
    "client_detail": "client detail (holding the campaign)",
    "calls": "a campaign's calls, page 1",
    "forecast": "a campaign's forecast (its N leads and N calls)",
    "imports": "imports, page 1",
    "deliveries": "webhook deliveries, page 1",
    "events": "events feed, 100 events",
    "payment_requests": "a client's payment requests, page 1",
    "subscriptions": "a client's subscriptions",
    "usage": "a client's usage",
    "v1_update": "v1 lead update",
    "bulk_add_100": "bulk add of 100 leads",
    "dial_round": "dial round (operator, 10 calls)",
    "billing_sweep": "billing sweep (operator)",
}

# The service's route labels in the soak's per-window histograms; None: the
# harness's own reads, left out.
SOAK_ROUTES = {
    "PATCH /v1/api/voice-campaigns/{campaign_id}/lead/update": "v1 updates",
    "POST /api/v2/voice-campaigns/{campaign_id}/leads": "new leads",
    "GET /api/v2/voice-campaigns/{campaign_id}/leads/list": "lists",
    "GET /api/v2/voice-campaigns/{campaign_id}": "campaign reads",
    "GET /api/v2/clients/{client_id}": "client detail reads",
    "GET /metrics": None,
}

MICRO = {
    "encode_global_id": "a global id encoded",
    "decode_global_id": "a global id decoded",
    "decode_global_id_wrong_kind": "a global id of another kind refused",
    "check_phone_valid": "a valid phone number checked",
    "check_phone_invalid": "an invalid phone number refused",
    "is_email": "an e-mail address checked",
    "bulk_body_1000_parse_and_validate": "a 1,000-lead bulk body parsed, validated and encoded "
                                         "as column arrays",
    "lead_page_50_render": "a page of 50 leads rendered",
    "route_lead_list": "a request path matched to its route",
}
MICRO_COMMAND = ("build/test/benchmarks/micro_benchmarks --benchmark_repetitions=3 "
                 "--benchmark_report_aggregates_only=true")


def mix(weights):
    return ", ".join(f"{w}% {describe(MIX, k, 'mix kind', MODULE)}"
                     for k, w in weights.items() if w)


def context(run, row):
    """What a scenario's description may name: the run's settings and the
    row's own fields, numbers with thousands separators."""
    out = {k: num(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
           for k, v in {**run.get("settings", {}), **row}.items()}
    if "mix" in row:
        out["mix"] = mix(row["mix"])
    return out


def rate(row):
    unit = row["unit"] or ""
    if unit.startswith("req/s"):
        unit = "req/s"
    elif unit.startswith("MB RSS"):
        unit = "MB"
    elif unit == "ms to healthy":
        unit = "ms"
    elif unit.startswith("x:"):
        return f"{row['rate']:.2f}×"
    text = f"{num(row['rate'])} {unit}"
    if row.get("leads_per_request"):
        text += f" ({num(row['rate'] * row['leads_per_request'])} leads/s)"
    return text


def cpu(row):
    if row.get("cpu_ms_per_request") is not None:
        return f"{row['cpu_ms_per_request']:.3f} ms/req"
    if row.get("cpu_us_per_lead") is not None:
        return f"{row['cpu_us_per_lead']:.1f} µs/lead"
    if row.get("cpu_ms_per_call") is not None:
        return f"{row['cpu_ms_per_call']:.2f} ms/call"
    return "–"


def cpu_words(row):
    """The CPU cell as words: "0.250 ms of service CPU per request"."""
    if row.get("cpu_ms_per_request") is None:
        return "unknown service CPU per request"
    return f"{row['cpu_ms_per_request']:.3f} ms of service CPU per request"


def stmts(row):
    value = row.get("statements_per_request")
    return "–" if value is None else num(value, 1)


def suite_table(doc):
    rows = []
    for r in doc["results"]:
        text = describe(SCENARIOS, r["scenario"], "scenario", MODULE).format(
            **context(doc["run"], r))
        base = r.get("baseline")
        ratio = f"{r['ratio']:.3f}× `{base}`" if base and r.get("ratio") is not None else "–"
        rss = "–" if r["scenario"] in BASELINES else num(r.get("rss_mb"))
        rows.append([f"`{r['scenario']}`", text, rate(r), ms(r.get("p50_ms")),
                     ms(r.get("p99_ms")), num(r.get("errors")), ratio, stmts(r), cpu(r), rss])
    return table(["Scenario", "What it does", "Rate>", "p50 ms>", "p99 ms>", "Errors>",
                  "Against its baseline>", "Statements / request>", "Service CPU>",
                  "Peak RSS MB>"], rows)


def side(doc, implementation, scenario):
    return next((r for r in doc["side_by_side"]["summary"]
                 if r["implementation"] == implementation and r["scenario"] == scenario), None)


def goals(docs):
    """The project's goals, each against this run's figure."""
    suite, sbs = docs["suite"], docs["side_by_side"]
    s = sbs["side_by_side"]
    rows = []
    page1, deep = side(sbs, "service", "list_page1"), side(sbs, "service", "list_deep")
    rows.append(("lead list page 1 at 0.6× the ceiling's one-key read or more (side by side)",
                 f"{page1['vs_ceiling']:.2f}×", page1["vs_ceiling"] >= 0.6))
    growth = deep["p50_ms"] / page1["p50_ms"]
    rows.append((f"a page at offset {num(s['deep_offset'])} within 1.5× of page 1's p50 "
                 "(side by side)", f"{growth:.2f}× ({ms(deep['p50_ms'])} against "
                 f"{ms(page1['p50_ms'])} ms)", growth <= 1.5))
    bulk = side(sbs, "service", "bulk_add_10k")
    peers = [r for r in s["summary"] if r["scenario"] == "bulk_add_10k" and r["kind"] == "peer"
             and r.get("until_listed_ms")]
    if peers:
        fastest = min(peers, key=lambda r: r["until_listed_ms"])
        share = bulk["until_listed_ms"] / fastest["until_listed_ms"]
        rows.append(("10,000 leads added and listed in half the fastest peer's time or less "
                     "(side by side)", f"{share:.2f}× ({bulk['until_listed_ms'] / 1000:.2f} s "
                     f"against {fastest['implementation']}'s "
                     f"{fastest['until_listed_ms'] / 1000:.2f} s)", share <= 0.5))
    by = {r["scenario"]: r for r in suite["results"]}
    update, add = by["update_batched"], by["bulk_add"]
    rows.append(("v1 updates on one hot campaign at p99 50 ms or less (`update_batched`)",
                 f"{ms(update['p99_ms'])} ms", update["p99_ms"] <= 50))
    rows.append((f"{num(add['leads'])} leads into a new campaign at 60,000 leads/s or more "
                 "(`bulk_add`)", f"{num(add['rate'])} leads/s", add["rate"] >= 60_000))
    return table(["Goal", "Measured", "Met"],
                 [(g, m, "yes" if ok else "**no**") for g, m, ok in rows])


def side_by_side(doc):
    s = doc["side_by_side"]
    for impl in s["implementations"]:
        describe(IMPLEMENTATIONS, impl["implementation"], "implementation", MODULE)
    lists, bulk = [], []
    for r in s["summary"]:
        name = r["implementation"]
        who = "**service**" if name == "service" else name
        rounds = " / ".join(num(v) for v in r["rounds"])
        if r["scenario"] == "bulk_add_10k":
            bulk.append([who, f"{r['until_listed_ms'] / 1000:.2f}",
                         f"{r['accepted_ms'] / 1000:.2f}", num(r["rate"]), rounds,
                         "–" if name == "service" else ratio(r["vs_service"]), stmts(r),
                         cpu(r), num(r["errors"])])
            continue
        work = describe(SIDE_LISTS, r["scenario"], "side-by-side scenario", MODULE).format(
            deep_offset=num(s["deep_offset"]))
        vs_service = "–" if name == "service" or r["kind"] == "ceiling" \
            else ratio(r["vs_service"])
        lists.append([work, who, num(r["rate"]), rounds,
                      f"{ms(r['p50_ms'])} / {ms(r['p99_ms'])}", vs_service,
                      "–" if r["kind"] == "ceiling" else ratio(r["vs_ceiling"]), stmts(r),
                      cpu(r), num(r["errors"])])
    impls = "; ".join(f"**{i['implementation']}**: {IMPLEMENTATIONS[i['implementation']]}"
                      for i in s["implementations"])
    skipped = "".join(f"\n\nNot measured: {k['implementation']} ({k['reason']})."
                      for k in s["skipped"])
    return (f"`{command('benchmarks/run', doc['run']['argv'])}`: {s['rounds']} rounds, "
            f"taking turns, of {s['duration_s']} s per scenario with {s['connections']} "
            f"connections and {plural(s['wrk_threads'], 'wrk thread')}; each implementation "
            f"lists a campaign of {num(s['leads'])} leads in its own database of one PostgreSQL, "
            f"reached over TCP. Medians over the rounds, then each round.\n\n{impls}.{skipped}"
            "\n\n" + table(["Work", "Implementation", "req/s>", "Each round>", "p50 / p99 ms>",
                            "× service>", "× ceiling>", "Statements / request>",
                            "CPU>", "Errors>"], lists) +
            f"\n\n**{num(s['bulk_leads'])} leads added**, one bulk request each round, timed "
            "until the list's `total_count` shows them all (the peers insert before they "
            "answer; the service answers first and inserts in the background):\n\n" +
            table(["Implementation", "Listed after, s>", "Answered after, s>", "leads/s>",
                   "Each round, leads/s>", "× service>", "Statements>", "CPU>", "Errors>"],
                  bulk))


def slo_text(slo):
    return slo.replace("<=", "≤")


def steps(doc):
    r = doc["results"][0]
    if r["scenario"] != "mixed" or "steps" not in r:
        raise Unknown("steps.json: expected one step test of the mixed scenario")
    rows = [[num(st["target_rate"]), num(st["rate"]), ms(st["p50_ms"]), ms(st["p99_ms"]),
             ms(st["latency_ms"].get("99.9")), num(st["errors"]), num(st["unfinished"]),
             f"{100 * st['send_shortfall']:.1f}%"] for st in r["steps"]]
    best = r.get("max_rate_meeting_slo")
    settings = doc["run"]["settings"]
    return (f"`{command('benchmarks/run', doc['run']['argv'])}`: the dialer's mix "
            f"({mix(r['mix'])}) on one campaign of {num(settings['hot_leads'])} leads, "
            f"{settings['duration_s']} s a step, at most {settings['connections']} "
            "connections.\n\n" +
            table(["Target req/s>", "Answered req/s>", "p50 ms>", "p99 ms>", "p99.9 ms>",
                   "Errors>", "Unfinished>", "Sends late>"], rows) +
            f"\n\nThe highest rate meeting {slo_text(r['slo'])} with no error, every send on "
            "schedule and at most 1% of requests unanswered: " +
            (f"**{num(best)} requests a second**" if best else "**none of the steps**") +
            f". Over the whole test, {stmts(r)} statements and {cpu_words(r)}.")


def soak(doc):
    r = doc["results"][0]
    if r["scenario"] != "mixed" or "timeline" not in r:
        raise Unknown("soak.json: expected one soak of the mixed scenario")
    windows = r["timeline"]
    length = windows[1]["second"] - windows[0]["second"] if len(windows) > 1 \
        else doc["run"]["settings"]["duration_s"]
    rows = [[f"{w['second'] // 60}–{(w['second'] + length) // 60}" if length % 60 == 0
             else f"{w['second']}–{w['second'] + length} s", num(w["answered"]),
             ms(w["p50_ms"]), ms(w["p99_ms"]), num(w["errors"]), num(w.get("rss_mb"))]
            for w in windows]
    last = []
    for label, route in sorted(windows[-1].get("routes", {}).items(),
                               key=lambda kv: -kv[1]["requests"]):
        name = describe(SOAK_ROUTES, label, "route", MODULE)
        if name:
            last.append(f"{name} {route['p99_ms']:g} ms")
    d = r["drift"]
    seconds = doc["run"]["settings"]["duration_s"]
    span = plural(seconds // 60, "minute") if seconds % 60 == 0 else f"{seconds} s"
    target = int(r["load"].split(" at ")[1].split(" req/s")[0])
    return (f"`{command('benchmarks/run', doc['run']['argv'])}`: the same mix, open loop "
            f"at {num(target)} requests a second for {span}, in windows of {length} s. "
            f"{num(r['rate'])} requests a second answered, {num(r['errors'])} errors, "
            f"{stmts(r)} statements and {cpu_words(r)}.\n\n" +
            table(["Minute" if length % 60 == 0 else "Window", "Answered req/s>", "p50 ms>",
                   "p99 ms>", "Errors>", "Service RSS MB>"], rows) +
            f"\n\nThe last window against the first: rate {d['rate_ratio']:.2f}×, p99 "
            f"{d['p99_ratio']:.2f}×, RSS {d['rss_mb']:+.1f} MB. The last window's p99 by "
            "route, from the service's own latency histograms (so each is a bucket's upper "
            "bound): " + ", ".join(last) + ".")


def scale(doc):
    s = doc["scale"]
    small, large = s["sizes"][0], s["sizes"][-1]
    by = {(r["route"], r["size"]): r for r in s["rows"]}
    rows, grew, slower = [], [], []
    for route in dict.fromkeys(r["route"] for r in s["rows"]):
        name = describe(ROUTES, route, "route", MODULE)
        a, b, g = by.get((route, small)), by.get((route, large)), by.get((route, "growth"))
        if not (a and b and g):
            raise Unknown(f"scale.json: route {route!r} lacks a size")
        if g["statements_growth"] > 0.5:
            grew.append(name)
        if g["p50_ratio"] > 1.5:
            slower.append(f"{name}, {g['p50_ratio']:.2f}×")
        rows.append([name, ms(a["p50_ms"]), ms(b["p50_ms"]), f"{g['p50_ratio']:.2f}×",
                     f"{ms(a['p99_ms'])} / {ms(b['p99_ms'])}",
                     f"{a['statements_per_request']:.0f} / {b['statements_per_request']:.0f}"])
    text = (f"`{command('benchmarks/run', doc['run']['argv'])}`: N = {num(small)} and "
            f"{num(large)}, {s['requests']} requests a route (a tenth of that for the operator "
            "rounds).\n\n" +
            table(["Route", f"p50 ms, N = {num(small)}>", f"p50 ms, N = {num(large)}>",
                   "Growth>", "p99 ms, both sizes>", "Statements, both sizes>"], rows))
    text += "\n\n" + (f"These routes ran more statements at the larger size: "
                      f"{'; '.join(grew)}." if grew else "No route runs more statements at the "
                      "larger size (CI checks this at 1,000 and 20,000 leads).")
    if slower:
        text += (f" The p50 grew more than 1.5× for: {'; '.join(slower)}. A p50 under a "
                 "millisecond moves by a few tenths between runs, so a route with the same "
                 "statements at both sizes can pass 1.5× in one run and not the next; the "
                 "routes that grow with the tenant are bounded as below.")
    return text


def micro(doc):
    rows = []
    for b in doc["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"])
        rows.append([f"`{name}`", describe(MICRO, name, "micro-benchmark", MODULE),
                     f"{sig(b['cpu_time'])} {b['time_unit'].replace('us', 'µs')}"])
    reps = "the median of 3 repetitions" if any(
        b.get("aggregate_name") == "median" for b in doc["benchmarks"]) else "one repetition"
    return (f"`{MICRO_COMMAND}` ({when(doc['context']['date'])}, "
            f"{doc['context'].get('build_type', 'unknown')} build), one core, CPU time of "
            f"{reps}:\n\n" + table(["Benchmark", "What it does", "Time>"], rows))


def dial_rules(doc):
    """The calling rules' benchmark: one row per side, medians of its rounds."""
    r = next((r for r in doc["results"] if r["scenario"] == "dial_rules"), None)
    if r is None:
        raise Unknown("dial_rules.json holds no dial_rules result")
    rows = [["off (`NONE`)", num(r["db_ms_per_call_off"], 3), num(r["statements_per_call_off"], 2)],
            ["on (`TELEMARKETING`)", num(r["db_ms_per_call_on"], 3),
             num(r["statements_per_call_on"], 2)]]
    return (f"{r['rounds']} rounds a side of {r['batch']} calls each over {num(r['leads'])} "
            f"leads; medians. Rules on cost **{r['rate']:.2f}×** the database time per call "
            "of rules off.\n\n" +
            table(["Calling rules", "Database ms / call>", "Statements / call>"], rows))


def runs(docs):
    rows = []
    for key, what in (("suite", "single scenarios, goals"), ("side_by_side", "side by side"),
                      ("steps", "step test"), ("soak", "soak"), ("scale", "cost as a tenant "
                                                                          "grows"),
                      ("dial_rules", "the calling rules' cost")):
        run = docs[key]["run"]
        rows.append([what, f"`{command('benchmarks/run', run['argv'])}`", when(run["started"]),
                     took(run), (run.get("service") or {}).get("build_type") or "–",
                     f"`benchmarks/results/{key}.json`"])
    ctx = docs["micro"]["context"]
    rows.append(["micro-benchmarks", f"`{MICRO_COMMAND}`", when(ctx["date"]), "–",
                 ctx.get("build_type", "–"), "`benchmarks/results/micro.json`"])
    return table(["Figures", "Command", "Measured", "Took", "Build", "JSON"], rows)


def render(docs):
    suite = docs["suite"]
    return fill("performance.md", {
        "machine": f"Measured on {machine(suite['run'])}.",
        "runs": runs(docs),
        "goals": goals(docs),
        "side_by_side": side_by_side(docs["side_by_side"]),
        "steps": steps(docs["steps"]),
        "soak": soak(docs["soak"]),
        "suite_command": f"`{command('benchmarks/run', suite['run']['argv'])}`, "
                         f"{suite['run']['settings']['duration_s']} s a scenario, "
                         f"{suite['run']['settings']['connections']} connections unless "
                         "noted:",
        "suite": suite_table(suite),
        "scale": scale(docs["scale"]),
        "dial_rules": dial_rules(docs["dial_rules"]),
        "micro": micro(docs["micro"]),
    })
