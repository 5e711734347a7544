"""What every drill of scripts/reliability works with: a private deployment
(its per-client limit back to the service's default), a tenant with a
campaign and leads, the probe, and the drills' results."""

import json
import re
import threading
import time

from vcs_tools.api import Api, load_leads, ms, new_campaign
from vcs_tools.client import request
from vcs_tools.deployment import Deployment
from vcs_tools.log import drill_log as log
from vcs_tools.metadata import local_service, run_metadata


class Probe:
    """A well-behaved client from 127.0.0.2: a public read and /healthz every 50 ms."""

    def __init__(self, dep, key, campaign):
        self.dep, self.key, self.campaign = dep, key, campaign
        self.samples = []  # (kind, status, seconds, monotonic time)
        self.running = False

    def start(self):
        self.samples = []
        self.running = True
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()
        return self

    def loop(self):
        while self.running:
            for kind, port, path, token in (
                    ("api", self.dep.public_port, f"/api/v2/voice-campaigns/{self.campaign}",
                     self.key),
                    ("health", self.dep.operator_port, "/healthz", None)):
                status, _, secs = request(port, "GET", path, token, source="127.0.0.2")
                self.samples.append((kind, status, secs, time.monotonic()))
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.thread.join()
        out = {}
        for kind in ("api", "health"):
            rows = [s for s in self.samples if s[0] == kind]
            ok = [s for s in rows if s[1] == 200]
            out[kind] = {
                "requests": len(rows),
                "ok_pct": round(100.0 * len(ok) / len(rows), 1) if rows else None,
                "p99_ms": ms([s[2] for s in rows], 99),
            }
        return out


class Drills:
    def __init__(self, args):
        self.args = args
        self.results = []
        self.current = None  # the drill running, by its name in DRILLS

    def setup(self):
        self.dep = Deployment(self.args.binary)
        # The service's own limits are under test: the harness's load
        # generator setting (no per-client limit) is put back to the default.
        harness_env = self.dep.node_env
        self.dep.node_env = lambda public, operator, extra=None: {
            **harness_env(public, operator), "VCS_MAX_CONNECTIONS_PER_CLIENT": "1000",
            **(extra or {})}
        self.dep.start()
        self.op = Api(f"http://127.0.0.1:{self.dep.operator_port}", self.dep.token)
        self.provision()

    def provision(self):
        tenant = self.op.ok("POST", "/admin/v1/tenants", {"name": "drills", "plan": "PRO"})
        self.key = tenant["api_key"]["key"]
        self.api = Api(f"http://127.0.0.1:{self.dep.public_port}", self.key)
        self.campaign = new_campaign(self.api, "drills")
        load_leads(self.api, self.campaign, 2000, "+1640")
        self.probe = Probe(self.dep, self.key, self.campaign)

    def alive(self):
        return self.dep.proc is not None and self.dep.proc.poll() is None

    def record(self, drill, tool, figures, lost, passed):
        """passed: True, False, or None for a drill skipped."""
        row = {"name": self.current, "drill": drill, "tool": tool, "figures": figures,
               "lost": lost, "passed": passed}
        self.results.append(row)
        verdict = "skipped" if passed is None else "ok" if passed else "FAILED"
        log(f"{drill}: {verdict} {json.dumps(figures)}")

    def requests_served(self):
        """Requests the service has answered so far (its /metrics counters)."""
        return sum(int(float(m)) for m in
                   re.findall(r'^vcs_http_requests_total\{[^}]*\} (\S+)$', self.op.metrics(10),
                              re.M))

    def probe_ok(self, probe, min_pct=99.0):
        return all(probe[k]["ok_pct"] is not None and probe[k]["ok_pct"] >= min_pct
                   for k in ("api", "health"))

    def metadata(self, started):
        """When and how the drills ran, as benchmarks/run records its runs
        (docs/performance.md and docs/reliability.md are made from both): the
        service, PostgreSQL, the machine, the settings that change the figures
        and the command line."""
        return run_metadata(started, local_service(self.dep.binary), self.dep, {
            "duration_s": self.args.duration, "ci": self.args.ci,
            "kills": 1 if self.args.ci else self.args.kills,
            "soak_seconds": self.args.soak_seconds, "drain_delay_ms": self.args.drain_delay_ms})

    def table(self):
        lines = ["| Fault or attack | Tool | Measured | Lost | Result |", "|---|---|---|---|---|"]
        for r in self.results:
            figures = "; ".join(f"{k}: {v}" for k, v in r["figures"].items())
            result = "skipped" if r["passed"] is None else "pass" if r["passed"] else "FAIL"
            lines.append(f"| {r['drill']} | {r['tool']} | {figures} | {r['lost']} | {result} |")
        return "\n".join(lines)
