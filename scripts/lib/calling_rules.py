#!/usr/bin/env python3
"""The calling rules data (data/calling_rules/rules.json): check it, print
its version and age, and render docs/calling-rules.md from it.

    calling_rules.py check   [RULES]         problems, one a line; exit 1 if any
    calling_rules.py version [RULES] [--today YYYY-MM-DD]
    calling_rules.py render  [RULES]         the docs page, on stdout

Every rule is data with a primary source and the dates it applies; this file
holds no rule itself. The rules are a safety net for tenants, not legal advice.
"""

import datetime
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_RULES = os.path.join(ROOT, "data", "calling_rules", "rules.json")

KINDS = ("hours", "day_ban", "contact_cap")
PURPOSES = ("telemarketing", "informational")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
TIME = re.compile(r"^([01][0-9]|2[0-4]):[0-5][0-9]$")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _date(text):
    try:
        return datetime.date.fromisoformat(text)
    except (TypeError, ValueError):
        return None


def _minutes(hhmm):
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def _check_hours(where, hours, problems):
    if not isinstance(hours, dict) or set(hours) != set(WEEKDAYS):
        problems.append(f"{where}: hours must name every weekday ({', '.join(WEEKDAYS)})")
        return
    for day in WEEKDAYS:
        ranges = hours[day]
        if not isinstance(ranges, list):
            problems.append(f"{where}: hours.{day} must be a list of [start, end] ranges")
            continue
        for r in ranges:
            if (not isinstance(r, list) or len(r) != 2 or not all(isinstance(t, str) and TIME.match(t) for t in r)
                    or _minutes(r[0]) >= _minutes(r[1])):
                problems.append(f"{where}: hours.{day} range {r!r} must be [\"HH:MM\", \"HH:MM\"], start before end")


def _check_country_zones(zones, problems):
    """Optional: {about, source, countries: {CC: [zone, ...]}}, each zone in
    one country only."""
    if zones is None:
        return
    source = zones.get("source") or {}
    if not source.get("title") or not str(source.get("url", "")).startswith("https://"):
        problems.append("country_zones: no source (a title and an https url)")
    countries = zones.get("countries")
    if not isinstance(countries, dict) or not countries:
        problems.append("country_zones: countries must map country codes to lists of zones")
        return
    owner = {}
    for country, names in countries.items():
        if not re.match(r"^[A-Z]{2}$", country):
            problems.append(f"country_zones: {country!r} is not an ISO 3166-1 alpha-2 code")
        if not isinstance(names, list) or not names:
            problems.append(f"country_zones: {country} must list its zones")
            continue
        for name in names:
            if not isinstance(name, str) or not re.match(r"^[A-Za-z_]+(/[A-Za-z0-9_+-]+)+$", name):
                problems.append(f"country_zones: {country}: {name!r} is not a tz database zone name")
            elif name in owner:
                problems.append(f"country_zones: {name} is in both {owner[name]} and {country}")
            else:
                owner[name] = country


def check(data):
    """Every problem of the data, in words; empty when it is sound."""
    problems = []
    for key in ("version", "reviewed_on", "notice", "rules"):
        if key not in data:
            problems.append(f"the data has no {key}")
    if "reviewed_on" in data and not _date(data["reviewed_on"]):
        problems.append("reviewed_on must be a date (YYYY-MM-DD)")
    calendars = data.get("holiday_calendars", {})
    holidays = set()
    for name, calendar in calendars.items():
        source = calendar.get("source") or {}
        if not source.get("title") or not source.get("url"):
            problems.append(f"holiday calendar {name}: no source (title and url)")
        for h in calendar.get("holidays", []):
            holidays.add(f"{name}:{h.get('id')}")
    _check_country_zones(data.get("country_zones"), problems)
    seen = set()
    for i, rule in enumerate(data.get("rules", [])):
        rid = rule.get("id")
        where = f"rule {rid or '#' + str(i)}"
        if not isinstance(rid, str) or not ID.match(rid):
            problems.append(f"{where}: id must be lower-case words joined by dashes")
        elif rid in seen:
            problems.append(f"{where}: id used twice")
        seen.add(rid)
        j = rule.get("jurisdiction") or {}
        if not re.match(r"^[A-Z]{2}$", str(j.get("country"))):
            problems.append(f"{where}: jurisdiction.country must be an ISO 3166-1 alpha-2 code")
        if j.get("region") is not None and not re.match(r"^[A-Z0-9]{1,3}$", str(j.get("region"))):
            problems.append(f"{where}: jurisdiction.region must be an ISO 3166-2 subdivision code or null")
        purposes = rule.get("purposes")
        if not purposes or not isinstance(purposes, list) or any(p not in PURPOSES for p in purposes):
            problems.append(f"{where}: purposes must be a non-empty list of {', '.join(PURPOSES)}")
        source = rule.get("source") or {}
        if not source.get("title") or not str(source.get("url", "")).startswith("https://"):
            problems.append(f"{where}: no source (a title and an https url)")
        start = _date(rule.get("effective_from"))
        if not start:
            problems.append(f"{where}: no effective_from date (YYYY-MM-DD)")
        if "effective_to" not in rule:
            problems.append(f"{where}: no effective_to (a date, or null while in force)")
        elif rule["effective_to"] is not None:
            end = _date(rule["effective_to"])
            if not end:
                problems.append(f"{where}: effective_to must be a date or null")
            elif start and end <= start:
                problems.append(f"{where}: effective_to must be after effective_from")
        kind = rule.get("kind")
        if kind not in KINDS:
            problems.append(f"{where}: kind must be one of {', '.join(KINDS)}")
        elif kind == "hours":
            _check_hours(where, rule.get("hours"), problems)
        elif kind == "day_ban":
            banned = rule.get("banned_days") or {}
            weekdays = banned.get("weekdays", [])
            named = banned.get("holidays", [])
            if not weekdays and not named:
                problems.append(f"{where}: banned_days names no weekday and no holiday")
            for d in weekdays:
                if d not in WEEKDAYS:
                    problems.append(f"{where}: banned weekday {d!r} is not one of {', '.join(WEEKDAYS)}")
            for h in named:
                if h not in holidays:
                    problems.append(f"{where}: holiday {h!r} is in no holiday calendar")
        elif kind == "contact_cap":
            cap = rule.get("cap") or {}
            if not isinstance(cap.get("calls"), int) or cap["calls"] < 1:
                problems.append(f"{where}: cap.calls must be a positive integer")
            if not isinstance(cap.get("window_hours"), int) or cap["window_hours"] < 1:
                problems.append(f"{where}: cap.window_hours must be a positive integer")
            if cap.get("per") not in ("number", "person"):
                problems.append(f"{where}: cap.per must be number or person")
    return problems


def version_line(data, today):
    reviewed = _date(data["reviewed_on"])
    age = (today - reviewed).days
    return (f"calling rules {data['version']}, reviewed {data['reviewed_on']} "
            f"({age} day{'s' if age != 1 else ''} ago), {len(data['rules'])} rules")


def _where(j):
    return j["country"] + (f"-{j['region']}" if j.get("region") else "")


def _what(rule):
    kind = rule["kind"]
    if kind == "hours":
        # Runs of weekdays with the same hours: "mon–fri 09:00–21:30; sat–sun 10:00–18:00".
        runs = []
        for day in WEEKDAYS:
            ranges = rule["hours"][day]
            if runs and runs[-1][2] == ranges:
                runs[-1][1] = day
            else:
                runs.append([day, day, ranges])
        parts = []
        for first, last, ranges in runs:
            days = "every day" if (first, last) == ("mon", "sun") else first if first == last else f"{first}–{last}"
            parts.append(f"{days} " + (", ".join(f"{a}–{b}" for a, b in ranges) if ranges else "none"))
        return "calls only " + "; ".join(parts)
    if kind == "day_ban":
        b = rule["banned_days"]
        named = b.get("weekdays", []) + b.get("holidays", [])
        return "no calls on " + ", ".join(named)
    cap = rule["cap"]
    same = " on the same subject" if cap.get("subject") == "same_subject" else ""
    return f"at most {cap['calls']} calls per {cap['per']}{same} in any {cap['window_hours']} hours"


def render(data):
    lines = [
        "# Calling rules",
        "",
        "<!-- Generated from data/calling_rules/rules.json by scripts/lib/calling_rules.py render;",
        "     edit the data, then run it again (tests/data checks this page). -->",
        "",
        data["notice"],
        "",
        f"Version {data['version']}, reviewed on {data['reviewed_on']};",
        "`scripts/calling-rules` prints the version and its age. Each rule applies in",
        "the called person's local time, on the local days from `effective_from` up to,",
        "not including, `effective_to` (… while in force). The dialer applies the hours",
        "and caps to campaigns of the purposes a rule governs (a campaign's",
        "`calling_purpose`); a lead a rule holds names it in `dial_rule`. A cap counts",
        "a tenant's calls to the number on all of its campaigns. Why the rules are kept this way,",
        "what applies them and how they are kept current:",
        "[decisions/calling-rules.md](decisions/calling-rules.md).",
        "",
        "| Rule | Where | Purposes | What | In force | Source |",
        "|---|---|---|---|---|---|",
    ]
    for r in sorted(data["rules"], key=lambda r: (_where(r["jurisdiction"]), r["id"])):
        until = r["effective_to"] or "…"
        lines.append(f"| `{r['id']}` | {_where(r['jurisdiction'])} | {', '.join(r['purposes'])} | {_what(r)} | "
                     f"{r['effective_from']} – {until} | [{r['source']['title']}]({r['source']['url']}) |")
    zones = data.get("country_zones")
    if zones:
        lines += ["", "## Time zones by country", "",
                  f"{zones['about']} Source: [{zones['source']['title']}]({zones['source']['url']}).", ""]
        for country, names in zones["countries"].items():
            lines.append(f"- {country}: " + ", ".join(f"`{n}`" for n in names))
    calendars = data.get("holiday_calendars", {})
    if calendars:
        lines += ["", "## Holiday calendars", ""]
        for name, cal in sorted(calendars.items()):
            days = ", ".join(f"`{h['id']}` ({h['rule']})" for h in cal.get("holidays", []))
            lines.append(f"- `{name}` ([{cal['source']['title']}]({cal['source']['url']})): {days}")
    left = data.get("not_included", [])
    if left:
        lines += ["", "## Not included yet", ""]
        for item in left:
            lines.append(f"- {item['jurisdiction']}: {item['why']}")
    return "\n".join(lines) + "\n"


def main(argv):
    if not argv or argv[0] not in ("check", "version", "render"):
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    today = datetime.date.today()
    if "--today" in rest:
        at = rest.index("--today")
        today = datetime.date.fromisoformat(rest[at + 1])
        del rest[at:at + 2]
    data = load(rest[0] if rest else DEFAULT_RULES)
    if command == "check":
        problems = check(data)
        for p in problems:
            print(p)
        return 1 if problems else 0
    if command == "version":
        print(version_line(data, today))
        return 0
    sys.stdout.write(render(data))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
