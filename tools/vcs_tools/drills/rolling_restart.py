"""rolling_restart: three nodes behind HAProxy (config/haproxy-cluster.cfg)
under a steady mixed load and lead writes, each node stopped (SIGTERM) and
started again in turn: no request may fail, and every acknowledged write
must be listed afterwards."""

import os
import subprocess
import threading
import time

from vcs_tools import ROOT
from vcs_tools.api import Api, load_leads, new_campaign
from vcs_tools.client import request
from vcs_tools.deployment import free_port, stop_process, wait_http
from vcs_tools.drills.writers import LeadWriters
from vcs_tools.log import drill_log as log
from vcs_tools.wrk import wrk


def rolling_restart(drills):
    drain_ms = drills.args.drain_delay_ms
    tenant, api, hot, written = provision(drills)
    nodes = Nodes(drills.dep, drain_ms)
    lb = None
    try:
        lb, lb_public = nodes.behind_haproxy()
        writers = LeadWriters(lb_public, tenant["api_key"]["key"], written, "+1645", 4,
                              15).start()
        load, wrk_thread = mixed_load(tenant, hot, lb_public, drain_ms)
        time.sleep(2)
        restarts = [nodes.restart(i) for i in range(3)]
        wrk_thread.join()
        writers.stop()
    finally:
        if lb:
            stop_process(lb)
        nodes.stop()
    report(drills, api, written, writers, load, restarts, drain_ms)


def provision(drills):
    """A tenant of its own with a campaign of 1,000 leads the mixed load
    updates and one the writers add to: (tenant, api, hot, written)."""
    # After database_crash the first request on a connection the crash
    # broke is answered 503 (retry): provisioning retries it.
    for attempt in range(40):
        try:
            tenant = drills.op.ok("POST", "/admin/v1/tenants", {"name": "rolling", "plan": "PRO"})
            break
        except RuntimeError as e:
            if " 503 " not in str(e) or attempt == 39:
                raise
            time.sleep(0.25)
    api = Api(f"http://127.0.0.1:{drills.dep.public_port}", tenant["api_key"]["key"])
    hot = new_campaign(api, "rolling-hot")
    load_leads(api, hot, 1000, "+1644")
    return tenant, api, hot, new_campaign(api, "rolling-writes")


class Nodes:
    """The three nodes on the drill's database, each with its (public,
    operator) ports."""

    def __init__(self, dep, drain_ms):
        self.dep, self.drain_ms = dep, drain_ms
        self.ports = [(free_port(), free_port()) for _ in range(3)]
        self.procs = [self.start(p) for p in self.ports]

    def start(self, ports):
        # HAProxy names each client in a PROXY protocol header.
        env = self.dep.node_env(*ports, {"VCS_DRAIN_DELAY_MS": str(self.drain_ms),
                                         "VCS_TRUSTED_PROXIES": "127.0.0.1"})
        return subprocess.Popen([self.dep.binary, "serve"], env=env, stdout=self.dep.log,
                                stderr=subprocess.STDOUT)

    def ready(self, i, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.procs[i].poll() is None:
            if request(self.ports[i][1], "GET", "/readyz", timeout=2)[0] == 200:
                return True
            time.sleep(0.05)
        return False

    def behind_haproxy(self):
        """HAProxy in front of the nodes once all are ready, every server
        seen up: (its process, its public port)."""
        if not all(self.ready(i) for i in range(3)):
            raise RuntimeError("a node did not become ready")
        lb_public, lb_operator = free_port(), free_port()
        cfg = os.path.join(self.dep.pgdir, "haproxy-rolling.cfg")
        text = open(os.path.join(ROOT, "config", "haproxy-cluster.cfg")).read()
        servers = lambda k: "\n".join(f"  server node{i} 127.0.0.1:{p[k]} check"
                                      for i, p in enumerate(self.ports))
        for name, value in (("@PUBLIC_BIND@", f"127.0.0.1:{lb_public}"),
                            ("@OPERATOR_BIND@", f"127.0.0.1:{lb_operator}"),
                            ("@PUBLIC_SERVERS@", servers(0)),
                            ("@OPERATOR_SERVERS@", servers(1))):
            text = text.replace(name, value)
        with open(cfg, "w") as f:
            f.write(text)
        lb = subprocess.Popen(["haproxy", "-db", "-f", cfg], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        wait_http(f"http://127.0.0.1:{lb_public}/readyz", lb)
        time.sleep(2.5)  # every server seen up (rise 2)
        return lb, lb_public

    def restart(self, i):
        """Node i stopped (SIGTERM: it drains) and started again; how long
        each took."""
        began = time.monotonic()
        self.procs[i].terminate()
        self.procs[i].wait(timeout=60)
        stopped = time.monotonic() - began
        self.procs[i] = self.start(self.ports[i])
        if not self.ready(i):
            raise RuntimeError(f"node {i} did not come back")
        restart = {"node": i, "stop_s": round(stopped, 2),
                   "back_ready_s": round(time.monotonic() - began, 2)}
        log(f"  node {i}: stopped in {stopped:.1f} s, ready again after "
            f"{restart['back_ready_s']} s")
        time.sleep(2.5)  # HAProxy sees it up again (rise 2) before the next one
        return restart

    def stop(self):
        for n in self.procs:
            stop_process(n)


def mixed_load(tenant, hot, lb_public, drain_ms):
    """The mixed dialer profile, closed loop, for as long as the restarts
    take: (its result once the thread is joined, the thread)."""
    per_node = drain_ms / 1000 + 4
    load_seconds = int(3 * per_node + 6)
    load = {}
    wrk_thread = threading.Thread(target=lambda: load.update(wrk(
        f"http://127.0.0.1:{lb_public}", "mixed.lua",
        [hot, tenant["api_key"]["key"], tenant["tenant_id"], 1000, "+1644", "-", "646",
         "60,15,10,15,0"],
        load_seconds, 16, 1)))
    wrk_thread.start()
    return load, wrk_thread


def report(drills, api, written, writers, load, restarts, drain_ms):
    listed = api.ok("GET", f"/api/v2/voice-campaigns/{written}/leads/list?limit=1")
    total = listed["page_info"]["total_count"]
    lost = max(0, len(writers.acked) - total)
    statuses = writers.statuses
    writes_failed = sum(n for k, n in statuses.items() if k != "201")
    load_failed = load.get("errors_by_status", {"no result": 1})
    figures = {"restarts": restarts, "mixed_requests": round(load.get("rate", 0) *
                                                             load.get("duration_s", 0)),
               "mixed_failed": load_failed, "lead_writes": statuses,
               "acknowledged_leads": len(writers.acked), "leads_listed": total}
    drills.record("Rolling restart of 3 nodes behind HAProxy under load",
                  f"SIGTERM with drain-delay-ms {drain_ms}, haproxy /readyz checks", figures,
                  "nothing" if lost == 0 else f"{lost} leads",
                  lost == 0 and writes_failed == 0 and not load_failed and
                  len(restarts) == 3)
