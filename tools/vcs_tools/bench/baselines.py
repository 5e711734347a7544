"""The baselines benchmarks/run rates the service's scenarios against (its
BASELINE_OF): what this machine's PostgreSQL and a bare HTTP server do."""

import os
import re
import socket
import subprocess
import time

from vcs_tools.deployment import PGBIN, free_port
from vcs_tools.log import bench_log as log
from vcs_tools.wrk import wrk


def pgbench_select(bench, scenario, d, c):
    if not bench.deployment:
        return log("skipping baseline_pgbench_select (needs the private database)")
    url = bench.deployment.url_of("postgres")
    subprocess.run([f"{PGBIN}/pgbench", "-i", "-q", "-s", "10", url], check=True,
                   capture_output=True)
    out = subprocess.run([f"{PGBIN}/pgbench", "-S", "-M", "prepared", "-c", "8", "-j",
                          "2", "-T", str(d), "-r", url], check=True, capture_output=True,
                         text=True).stdout
    return bench.record(scenario, pgbench_figures(out))


def static(bench, scenario, d, c):
    if not bench.deployment:
        return log("skipping baseline_static (runs a local server)")
    port = free_port()
    server = subprocess.Popen([bench.deployment.static_binary, str(port), "2"])
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        return bench.record(scenario, wrk(f"http://127.0.0.1:{port}", "get.lua",
                                          ["/healthz", ""], d, c, bench.wrk_threads))
    finally:
        server.terminate()
        server.wait(timeout=10)


def pgbench_insert(bench, scenario, d, c):
    if not bench.deployment:
        return log("skipping baseline_pgbench_insert (needs the private database)")
    url = bench.deployment.url_of("postgres")
    subprocess.run([f"{PGBIN}/psql", url, "-qc",
                    "SET client_min_messages = warning; "
                    "DROP TABLE IF EXISTS bench_insert; CREATE TABLE bench_insert "
                    "(id bigserial PRIMARY KEY, v integer NOT NULL, "
                    "at timestamptz NOT NULL DEFAULT now())"], check=True)
    script = os.path.join(bench.deployment.pgdir, "insert.sql")
    with open(script, "w") as f:
        f.write("\\set r random(1, 1000000)\nINSERT INTO bench_insert (v) VALUES (:r);\n")
    out = subprocess.run([f"{PGBIN}/pgbench", "-n", "-M", "prepared", "-c", "8", "-j",
                          "2", "-T", str(d), "-f", script, url], check=True,
                         capture_output=True, text=True).stdout
    return bench.record(scenario, pgbench_figures(out))


def pgbench_figures(out):
    """A pgbench run's transactions a second and average latency."""
    tps = float(re.search(r"tps = ([\d.]+)", out).group(1))
    lat = float(re.search(r"latency average = ([\d.]+) ms", out).group(1))
    return {"rate": tps, "unit": "tx/s", "p50_ms": lat, "p99_ms": None, "errors": 0}
