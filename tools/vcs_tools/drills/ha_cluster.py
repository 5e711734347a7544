"""The highly available database of the failover and switchover drills
(scripts/lib/ha.sh: three etcd members, a Patroni primary with a
synchronous standby, HAProxy's leader port) and two nodes on it."""

import os
import subprocess

from vcs_tools import ROOT
from vcs_tools.deployment import PGBIN, free_port, stop_process, wait_http

# Webhooks go to a receiver on loopback; the sweep's requests fall
# due a century on, so that no subscription is blocked while the
# drill's sweeps move time ahead.
NODE_ENV = {"VCS_DIAL_INTERVAL_MS": "200",
            "VCS_SIMULATED_RING_MS": "20", "VCS_SIMULATED_CALL_MS": "200",
            "VCS_SIMULATED_OUTCOMES": "no_answer:1", "VCS_IMPORT_SWEEP_INTERVAL_MS": "500",
            "VCS_OUTBOUND_ALLOW": "127.0.0.1/32", "VCS_WEBHOOK_INTERVAL_MS": "100",
            "VCS_WEBHOOK_RETRY_SCHEDULE": "1s,2s,5s,10s,30s",
            "VCS_BILLING_PAYMENT_DUE_DAYS": "36500"}


class HaCluster:
    """etcd, Patroni and HAProxy in a folder of the drill's deployment, on
    ports from VCS_HA_DRILL_PORT_BASE (16450 by default)."""

    def __init__(self, dep, planned):
        self.dep = dep
        self.dir = os.path.join(dep.pgdir, "ha-switchover" if planned else "ha")
        self.base = int(os.environ.get("VCS_HA_DRILL_PORT_BASE", "16450"))
        self.nodes = []

    def ha(self, command, check=True):
        return subprocess.run(
            ["bash", "-c", f'source "{ROOT}/scripts/lib/pg.sh" && '
                           f'source "{ROOT}/scripts/lib/ha.sh" && {command}'],
            check=check, capture_output=True, text=True).stdout.strip()

    def on_primary(self, sql):
        return subprocess.run([f"{PGBIN}/psql", self.ha(f"ha_url {self.base}"), "-qAtc", sql],
                              check=True, capture_output=True, text=True).stdout.strip()

    def leader(self):
        return self.ha(f"ha_leader {self.base}")

    def start(self):
        """The cluster up and the service's schema migrated on it."""
        self.ha(f'ha_start "{self.dir}" {self.base}')
        self.url = self.ha(f"ha_url {self.base}")
        subprocess.run([self.dep.binary, "migrate"],
                       env=dict(os.environ, VCS_DATABASE_URL=self.url),
                       check=True, stdout=subprocess.DEVNULL)

    def start_nodes(self):
        """Two nodes on the cluster, each with its (public, operator) ports."""
        dep = self.dep
        self.ports = [(free_port(), free_port()) for _ in range(2)]
        extra = {"VCS_DATABASE_URL": self.url, **NODE_ENV}
        self.nodes = [subprocess.Popen([dep.binary, "serve"], env=dep.node_env(*p, extra),
                                       stdout=dep.log, stderr=subprocess.STDOUT)
                      for p in self.ports]

    def wait_nodes(self):
        for p, n in zip(self.ports, self.nodes):
            wait_http(f"http://127.0.0.1:{p[1]}/readyz", n)

    def stop(self):
        for n in self.nodes:
            stop_process(n)
        self.ha(f'ha_stop "{self.dir}"', check=False)
