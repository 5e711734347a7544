"""Progress lines on stderr, tagged with the tool that prints them."""

import sys


def tagged(tag):
    """A log(msg) printing `[tag] msg` on stderr at once."""
    def log(msg):
        print(f"[{tag}] {msg}", file=sys.stderr, flush=True)
    return log


# benchmarks/run's, and the deployment's and API helpers' (scripts/reliability
# reuses them as they are, so their lines keep this tag there too).
bench_log = tagged("bench")
# scripts/reliability's drills.
drill_log = tagged("reliability")
