"""benchmarks/run's state: the deployment measured (its own, or one named
with --target), the tenant and the campaigns of the run, the results; the
run of each scenario from the table in scenarios.py, and the clean-up."""

import random
import shutil

from vcs_tools.api import Api, empty_campaign, new_campaign
from vcs_tools.bench import side
from vcs_tools.bench.peers import Impl
from vcs_tools.bench.scenarios import BASELINE_OF, SCENARIOS
from vcs_tools.deployment import Deployment
from vcs_tools.log import bench_log as log


def bench_side(args):
    return bool(args.peer or args.shared_peers or args.ceiling is not None)


class Bench:
    def __init__(self, args):
        self.args = args
        self.deployment = None
        self.results = []
        self.fixtures = {}
        self.side_by_side = bench_side(args)
        self.wrk_threads = args.wrk_threads or (1 if self.side_by_side else 2)
        self.impls = []          # side by side: the service first, then peers, then the ceiling
        self.side_runs = []      # one entry per implementation, round and scenario
        self.side_summary = []
        self.skipped = []
        self.shared = self.ceiling = self.scratch = None
        self.side_done = False
        self.created = []        # campaigns this run created (emptied at the end on a --target)
        self.tenant_id = None
        self.own_tenant = False  # a tenant this run provisioned (deactivated on a --target)
        self.metadata = None
        self.scale_rows = []     # the scale scenario's routes by size (bench/scale.py)
        self.area = 199          # the last area mixed.lua numbered new leads in
        # Fresh phone numbers for bulk_add_10k: a block of this run, one
        # BULK_SIDE slice per round (runs against a long-lived --peer
        # campaign do not collide).
        self.bulk_next = random.randrange(0, max(1, 1000 - args.rounds - 1)) * side.BULK_SIDE

    def setup(self):
        a = self.args
        if a.target and a.key:
            # A tenant's key alone: no operator plane, nothing provisioned.
            self.public = a.target
            self.api = Api(a.target, a.key)
            self.op = None
            self.tenant_id = a.tenant_id
            return
        if a.target:
            public, operator, token = a.target, a.operator_url, a.token
        else:
            self.deployment = Deployment(a.binary, tcp=self.side_by_side)
            self.deployment.start()
            self.idle_rss = self.deployment.rss_mb()
            d = self.deployment
            public = f"http://127.0.0.1:{d.public_port}"
            operator = f"http://127.0.0.1:{d.operator_port}"
            token = d.token
        self.public = public
        op = Api(operator, token)
        tenant = op.ok("POST", "/admin/v1/tenants",
                       {"name": "bench", "plan": "ENTERPRISE", "campaign_limit": 100000})
        self.tenant_id = tenant["tenant_id"]
        self.own_tenant = True
        self.api = Api(public, tenant["api_key"]["key"])
        self.op = op
        if self.side_by_side:
            side.setup_side_by_side(self)

    def service(self, campaign=None):
        """The service as an implementation of the lead endpoints."""
        d = self.deployment
        return Impl("service", self.public, self.api.token, campaign, kind="service",
                    database="vcs" if d else None,
                    pid=(lambda: d.proc.pid if d.proc else None) if d else None)

    def campaign(self, name):
        """A campaign of this run's tenant, remembered for the clean-up."""
        c = new_campaign(self.api, name)
        self.created.append(c)
        return c

    def clean_up(self):
        """On a --target: every lead this run added removed, every campaign
        it created ENDED, and a tenant it provisioned deactivated. (A private
        deployment is simply stopped.)"""
        if not self.args.target:
            return
        removed = 0
        for c in self.created:
            try:
                removed += empty_campaign(self.api, c)
            except (RuntimeError, OSError) as e:
                log(f"clean-up of campaign {c} failed: {e}")
        log(f"clean-up: {removed} leads removed, {len(self.created)} campaigns ENDED")
        if self.own_tenant:
            self.op.ok("PATCH", f"/admin/v1/tenants/{self.tenant_id}", {"active": False})
            log(f"clean-up: tenant {self.tenant_id} deactivated")

    def teardown(self):
        """Stops the peers and the ceiling this run started (also on errors)."""
        try:
            self.clean_up()
        except (RuntimeError, OSError) as e:
            log(f"clean-up failed: {e}")
        try:
            if self.ceiling:
                self.ceiling.stop()
        finally:
            try:
                if self.shared:
                    self.shared.stop()
            finally:
                if self.scratch:
                    shutil.rmtree(self.scratch, ignore_errors=True)

    def run_all(self, scenarios):
        """Every scenario in order; side by side, the first of SIDE_BY_SIDE
        runs all of them (requested ones) in rounds."""
        for scenario in scenarios:
            if self.side_by_side and scenario in side.SIDE_BY_SIDE:
                if not self.side_done:
                    self.side_done = True
                    side.run_side_by_side(self, [s for s in side.SIDE_BY_SIDE if s in scenarios])
                continue
            self.run_measured(scenario)

    def record(self, scenario, result, **extra):
        result.update({"scenario": scenario, **extra})
        self.results.append(result)
        log(f"{scenario}: {result['rate']:.0f} {result['unit']}")

    def run_measured(self, scenario):
        """Runs a scenario, with the service's peak RSS during it."""
        before = len(self.results)
        if self.deployment and self.deployment.proc:
            self.deployment.sample_rss()
            try:
                self.run(scenario)
            finally:
                peak = self.deployment.stop_sampling()
            for r in self.results[before:]:
                r.setdefault("rss_mb", peak)
        else:
            self.run(scenario)

    def run(self, scenario):
        """The scenario's function from the table, with --duration and
        --connections."""
        SCENARIOS[scenario](self, scenario, self.args.duration, self.args.connections)

    def add_ratios(self):
        rates = {r["scenario"]: r["rate"] for r in self.results}
        for r in self.results:
            base = BASELINE_OF.get(r["scenario"])
            if base in rates and rates[base] and r["rate"] is not None:
                r["baseline"] = base
                r["ratio"] = r["rate"] / rates[base]
