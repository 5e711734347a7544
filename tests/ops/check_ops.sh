#!/usr/bin/env bash
# Checks the operator monitoring assets in docs/ops/:
#   - promtool accepts the alerting rules;
#   - the Grafana dashboard is valid JSON with unique panel ids and a gridPos
#     on every panel;
#   - every metric name in the alert file and in the dashboard's queries is
#     listed in docs/ops/metrics.txt (histogram _bucket/_sum/_count series
#     count as their family);
#   - every alert has a runbook_url to its section of docs/ops/runbooks.md,
#     and every section there is an alert's.
# Usage: tests/ops/check_ops.sh REPO_ROOT
# Needs promtool (Debian package `prometheus`) and python3.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 REPO_ROOT" >&2
  exit 2
fi
ops="$1/docs/ops"
rules="$ops/prometheus-alerts.yml"
dashboard="$ops/grafana-dashboard.json"
allowed="$ops/metrics.txt"

for f in "$rules" "$dashboard" "$allowed"; do
  [[ -f "$f" ]] || { echo "check_ops: missing $f" >&2; exit 1; }
done

if ! command -v promtool >/dev/null 2>&1; then
  echo "check_ops: promtool not found (apt-get install prometheus)" >&2
  exit 1
fi

if ! promtool_out=$(promtool check rules "$rules" 2>&1); then
  echo "$promtool_out" >&2
  echo "check_ops: promtool check rules failed" >&2
  exit 1
fi
rule_count=$(sed -n 's/.*SUCCESS: \([0-9]*\) rules found.*/\1/p' <<<"$promtool_out" | head -n 1)

python3 - "$rules" "$dashboard" "$allowed" "${rule_count:-?}" <<'PY'
import json
import re
import sys

rules_path, dashboard_path, allowed_path, rule_count = sys.argv[1:5]
NAME = re.compile(r"(?<![A-Za-z0-9_:])(?:vcs|process)_[a-z_]+")
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")
errors = []

with open(allowed_path) as f:
    allowed = {line.strip() for line in f
               if line.strip() and not line.lstrip().startswith("#")}
if not allowed:
    errors.append(f"{allowed_path}: no metric names")


def family(name):
    if name in allowed:
        return name
    for suffix in HISTOGRAM_SUFFIXES:
        if name.endswith(suffix) and name[: -len(suffix)] in allowed:
            return name[: -len(suffix)]
    return None


used = set()


def check_text(text, where):
    for name in NAME.findall(text):
        fam = family(name)
        if fam is None:
            errors.append(f"{where}: metric {name} is not in {allowed_path}")
        else:
            used.add(fam)


# The alert file: every token outside comment lines (expressions and
# annotations alike).
with open(rules_path) as f:
    for number, line in enumerate(f, 1):
        if not line.lstrip().startswith("#"):
            check_text(line, f"{rules_path}:{number}")

# Every alert links its section of runbooks.md, which has one for each.
runbooks_path = rules_path.replace("prometheus-alerts.yml", "runbooks.md")
with open(runbooks_path) as f:
    sections = {m.lower() for m in re.findall(r"^## (\w+)$", f.read(), re.M)}
with open(rules_path) as f:
    rules_text = f.read()
alerts = re.findall(r"^\s*- alert: (\w+)$", rules_text, re.M)
links = dict(re.findall(r"^\s*- alert: (\w+)$(?:(?!- alert:).)*?runbook_url: \"docs/ops/runbooks\.md#(\w+)\"",
                        rules_text, re.M | re.S))
for alert in alerts:
    if links.get(alert) != alert.lower():
        errors.append(f"{rules_path}: {alert} has no runbook_url docs/ops/runbooks.md#{alert.lower()}")
    if alert.lower() not in sections:
        errors.append(f"{runbooks_path}: no section ## {alert}")
for section in sections - {a.lower() for a in alerts}:
    errors.append(f"{runbooks_path}: section {section} names no alert")

# The dashboard.
try:
    with open(dashboard_path) as f:
        dash = json.load(f)
except ValueError as e:
    print(f"check_ops: {dashboard_path}: invalid JSON: {e}", file=sys.stderr)
    sys.exit(1)

panels = []


def collect_panels(items):
    for p in items or []:
        panels.append(p)
        collect_panels(p.get("panels"))


collect_panels(dash.get("panels"))
if not panels:
    errors.append(f"{dashboard_path}: no panels")
seen = {}
for p in panels:
    pid = p.get("id")
    title = p.get("title", "?")
    if not isinstance(pid, int):
        errors.append(f"{dashboard_path}: panel {title!r} has no integer id")
    elif pid in seen:
        errors.append(f"{dashboard_path}: panel id {pid} used by {seen[pid]!r} and {title!r}")
    else:
        seen[pid] = title
    grid = p.get("gridPos")
    if not isinstance(grid, dict) or not all(k in grid for k in ("h", "w", "x", "y")):
        errors.append(f"{dashboard_path}: panel {title!r} has no complete gridPos")

queries = 0


def walk(node, where):
    global queries
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("expr", "query", "definition") and isinstance(value, str):
                queries += 1
                check_text(value, f"{dashboard_path} ({where})")
            else:
                walk(value, where)
    elif isinstance(node, list):
        for item in node:
            walk(item, where)


for p in panels:
    walk(p.get("targets", []), f"panel {p.get('title', '?')!r}")
walk(dash.get("templating", {}), "templating")

if errors:
    for e in errors:
        print(f"check_ops: {e}", file=sys.stderr)
    sys.exit(1)

print(f"check_ops: OK: {rule_count} alerting rules pass promtool; dashboard has "
      f"{len(panels)} panels with unique ids and {queries} queries; "
      f"{len(used)} of {len(allowed)} metric families in {allowed_path} used, no others")
PY
