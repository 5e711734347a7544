#!/usr/bin/env python3
"""Writes docs/performance.md and docs/reliability.md from the runs kept in
benchmarks/results/ (the JSON of benchmarks/run, micro_benchmarks and
scripts/reliability) and the fixed prose in benchmarks/templates/.

Usage: python3 benchmarks/pages.py [--check]

--check writes nothing: it prints a diff and exits 1 when a committed page is
not what its JSON renders (ctest runs it as results_pages). A scenario, route
or drill in the JSON that the renderer does not describe is an error, so a
new one cannot reach the pages without its description.
"""

import argparse
import datetime
import difflib
import json
import os
import re
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
RESULTS = os.path.join(BENCH, "results")
TEMPLATES = os.path.join(BENCH, "templates")
# benchmarks/README.md ("Refreshing the pages") has the command for each.
FILES = ("suite", "side_by_side", "scale", "dial_rules", "steps", "soak", "micro", "drills")


class Unknown(Exception):
    """The JSON holds something the renderer has no description for."""


def load(name):
    path = os.path.join(RESULTS, name + ".json")
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        sys.exit(f"{path} is missing: benchmarks/README.md (Refreshing the pages) "
                 "has the command that writes it")


def describe(table, key, what, module):
    """table[key], or an error naming where the description belongs."""
    if key not in table:
        raise Unknown(f"{what} {key!r} is in the JSON but not described in "
                      f"benchmarks/{module}.py: add it there")
    return table[key]


def num(value, digits=0):
    """1234.5 -> "1,235"; None -> "–"."""
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def ms(value):
    """A latency in ms, to about three significant figures."""
    if value is None:
        return "–"
    if value < 10:
        return f"{value:.2f}"
    if value < 100:
        return f"{value:.1f}"
    return num(value)


def sig(value):
    """About three significant figures, without an exponent: 4040 -> "4,040"."""
    if value >= 100:
        return num(value)
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def ratio(value):
    """A ratio with two decimals, or two significant figures below 0.1:
    0.0014 -> "0.0014×"."""
    if value is None:
        return "–"
    return f"{value:.2f}×" if value >= 0.1 else f"{value:.2g}×"


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def statuses(counts):
    """{"200": 5, "503": 2} -> "5 × 200, 2 × 503" (largest first)."""
    if not counts:
        return "none"
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{num(n)} × {status}" for status, n in items)


def when(stamp):
    """"2026-11-28T09:24:07+0000" -> "2026-11-28"."""
    return stamp[:10] if stamp else "–"


def took(run):
    """Minutes (or seconds) from a run's start to its end."""
    fmt = "%Y-%m-%dT%H:%M:%S%z"
    try:
        seconds = (datetime.datetime.strptime(run["finished"], fmt) -
                   datetime.datetime.strptime(run["started"], fmt)).total_seconds()
    except (KeyError, TypeError, ValueError):
        return "–"
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


# Options that name this machine's files, not what was measured.
LOCAL_OPTIONS = ("--binary", "--json")


def command(tool, argv):
    """The command line a reader repeats: the tool and its arguments without
    where this run found its binary and wrote its JSON (the build type is
    given beside it)."""
    out, skip = [tool], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in LOCAL_OPTIONS:
            skip = True
        elif not arg.startswith(tuple(o + "=" for o in LOCAL_OPTIONS)):
            out.append(arg)
    return " ".join(out)


def machine(run):
    """"2 cores (CPU), 24 GiB of memory, PostgreSQL 15.18, the service's
    RelWithDebInfo build"."""
    m = run.get("machine") or {}
    cpu = f" ({m['cpu']})" if m.get("cpu") else ""
    memory = f", {m['memory_mb'] / 1024:.0f} GiB of memory" if m.get("memory_mb") else ""
    pg = run.get("postgresql") or ""
    pg = f", PostgreSQL {pg.split()[0]}" if pg else ""
    build = (run.get("service") or {}).get("build_type") or "unknown"
    return f"{m.get('cores', '?')} cores{cpu}{memory}{pg}, the service's {build} build"


def table(header, rows):
    """A Markdown table; header is a list of column titles, a title ending
    in ">" is right-aligned (figures)."""
    cols = [h.rstrip(">") for h in header]
    align = ["---:" if h.endswith(">") else "---" for h in header]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def fill(name, values):
    """benchmarks/templates/<name> with each {{key}} replaced; a key the
    template lacks, or one it has that is not given, is an error (a section
    would silently go missing)."""
    with open(os.path.join(TEMPLATES, name)) as f:
        text = f.read()
    wanted = set(re.findall(r"\{\{(\w+)\}\}", text))
    if wanted != set(values):
        raise Unknown(f"templates/{name}: placeholders {sorted(wanted)} against "
                      f"rendered sections {sorted(values)}")
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)].strip("\n"), text)


def render():
    """{page path: text} of both pages."""
    sys.path.insert(0, BENCH)
    import performance_page  # noqa: E402  (they import this module's helpers)
    import reliability_page  # noqa: E402
    docs = {name: load(name) for name in FILES}
    return {os.path.join(ROOT, "docs", "performance.md"): performance_page.render(docs),
            os.path.join(ROOT, "docs", "reliability.md"): reliability_page.render(docs)}


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true",
                   help="write nothing; print a diff and exit 1 when a page differs")
    args = p.parse_args()
    try:
        pages = render()
    except Unknown as e:
        sys.exit(f"benchmarks/pages.py: {e}")
    stale = []
    for path, text in pages.items():
        try:
            with open(path) as f:
                old = f.read()
        except FileNotFoundError:
            old = ""
        if old == text:
            continue
        rel = os.path.relpath(path, ROOT)
        if args.check:
            stale.append(rel)
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), rel + " (committed)",
                rel + " (rendered from benchmarks/results)"))
        else:
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {rel}")
    if stale:
        sys.exit(f"{' and '.join(stale)} {'differs' if len(stale) == 1 else 'differ'} from "
                 "what benchmarks/results renders: run python3 benchmarks/pages.py")


if __name__ == "__main__":
    # The page modules import this one as `pages`: the same module, so that
    # their Unknown is the one main() catches.
    sys.modules.setdefault("pages", sys.modules[__name__])
    main()
