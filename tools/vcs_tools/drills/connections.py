"""The drills on connections: slow headers and slow bodies (slowhttptest),
a flood of malformed requests, and far more connections than the workers
serve (wrk)."""

import os
import random
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time

from vcs_tools.wrk import wrk_summary


def slowhttptest(extra, duration):
    out = tempfile.mkdtemp(prefix="vcs-slow.")
    cmd = ["slowhttptest", "-g", "-o", os.path.join(out, "stats"), "-l", str(duration),
           "-p", "5"] + extra
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=duration + 120)
    connected, available = 0, []
    with open(os.path.join(out, "stats.csv")) as f:
        for line in f.readlines()[1:]:
            cols = line.strip().split(",")
            if len(cols) >= 5:
                connected = max(connected, int(cols[3]))
                available.append(cols[4])
    shutil.rmtree(out, ignore_errors=True)
    return connected, available


# Slow headers from one address: it holds at most the per-client limit of
# connections, each at most idle-timeout-ms; everyone else is served.
def slowloris(drills):
    d = drills.args.duration
    rss0 = drills.dep.rss_mb()
    drills.dep.sample_rss()
    probe = drills.probe.start()
    connected, _ = slowhttptest(
        ["-H", "-c", "4000", "-r", "800", "-i", "10", "-s", "8192", "-t", "GET",
         "-u", f"http://127.0.0.1:{drills.dep.public_port}/healthz"], d)
    p = probe.stop()
    peak = drills.dep.stop_sampling()
    figures = {"attack_connections": 4000, "held_by_attacker_max": connected,
               "probe_api_ok_pct": p["api"]["ok_pct"], "probe_api_p99_ms": p["api"]["p99_ms"],
               "probe_health_ok_pct": p["health"]["ok_pct"],
               "rss_mb": f"{rss0:.0f} -> {peak:.0f}"}
    drills.record("slowloris (slow headers)", "slowhttptest -H", figures, "nothing",
                  # slowhttptest counts a refused connection as connected
                  # until it reads the 503.
                  drills.alive() and drills.probe_ok(p) and connected <= 1010)


# Slow bodies: every slow upload is cut at read-timeout-ms.
def slow_body(drills):
    d = drills.args.duration
    probe = drills.probe.start()
    connected, _ = slowhttptest(
        ["-B", "-c", "2000", "-r", "400", "-i", "10", "-s", "100000", "-t", "POST",
         "-u", f"http://127.0.0.1:{drills.dep.public_port}/api/v2/voice-campaigns"], d)
    p = probe.stop()
    figures = {"attack_connections": 2000, "held_by_attacker_max": connected,
               "probe_api_ok_pct": p["api"]["ok_pct"], "probe_api_p99_ms": p["api"]["p99_ms"],
               "probe_health_ok_pct": p["health"]["ok_pct"]}
    drills.record("slow request bodies", "slowhttptest -B", figures, "nothing",
                  drills.alive() and drills.probe_ok(p))


# Garbage of every kind on many connections: each gets a 4xx or a close.
def malformed_flood(drills):
    d = drills.args.duration
    port = drills.dep.public_port
    key = drills.key
    payloads = [
        lambda: os.urandom(random.randint(1, 4096)),
        lambda: b"GET / HTTP/9.9\r\n\r\n",
        lambda: b"G\x00T /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        lambda: b"GET /healthz HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 20000 + b"\r\n\r\n",
        lambda: b"POST /api/v2/voice-campaigns HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        lambda: b"POST /api/v2/voice-campaigns HTTP/1.1\r\nHost: x\r\n"
                b"Transfer-Encoding: chunked\r\n\r\nzz\r\nboom\r\n",
        lambda: b"POST /api/v2/voice-campaigns HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + key.encode() + b"\r\nContent-Length: 9\r\n\r\n{\"name\":[",
        lambda: b"PATCH /api/v2/voice-campaigns/%%%/status HTTP/1.1\r\nHost: x\r\n"
                b"Authorization: Bearer " + key.encode() + b"\r\nContent-Length: 2\r\n\r\n{}",
        lambda: b"POST /api/v2/voice-campaigns/x/leads/bulk HTTP/1.1\r\nHost: x\r\n"
                b"Content-Length: 99999999999\r\n\r\n",
    ]
    counts = {}
    lock = threading.Lock()
    deadline = time.monotonic() + d

    def worker():
        while time.monotonic() < deadline:
            payload = random.choice(payloads)()
            outcome = "closed"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
                    s.sendall(payload)
                    data = s.recv(64)
                    m = re.match(rb"HTTP/1\.1 (\d{3})", data)
                    outcome = m.group(1).decode() if m else "closed"
            except OSError:
                outcome = "closed"
            with lock:
                counts[outcome] = counts.get(outcome, 0) + 1

    drills.dep.sample_rss()
    probe = drills.probe.start()
    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    p = probe.stop()
    peak = drills.dep.stop_sampling()
    sent = sum(counts.values())
    server_errors = sum(v for k, v in counts.items() if k.startswith("5"))
    figures = {"requests": sent, "answers": dict(sorted(counts.items())),
               "probe_api_ok_pct": p["api"]["ok_pct"], "probe_api_p99_ms": p["api"]["p99_ms"],
               "probe_health_ok_pct": p["health"]["ok_pct"], "peak_rss_mb": round(peak)}
    drills.record("malformed request flood", "16 threads of raw garbage", figures, "nothing",
                  drills.alive() and drills.probe_ok(p) and server_errors == 0)


# Far more concurrent requests than the workers serve: shed with 503,
# memory flat. wrk connects from one address, so this node has no
# per-client limit: the queue limits are what is measured.
def overload(drills):
    d = drills.args.duration
    drills.dep.stop_service()
    drills.dep.start_service({"VCS_MAX_CONNECTIONS_PER_CLIENT": "0"})
    url = f"http://127.0.0.1:{drills.dep.public_port}"
    path = f"/api/v2/voice-campaigns/{drills.campaign}/leads/list?limit=200"
    rss0 = drills.dep.rss_mb()
    drills.dep.sample_rss()
    probe = drills.probe.start()
    m = wrk_summary(url, "get.lua", [path, drills.key], d, 3000, 2, check=False)
    p = probe.stop()
    peak = drills.dep.stop_sampling()
    secs = m["duration_us"] / 1e6
    figures = {"connections": 3000, "served_per_s": round((m["requests"] - m["errors"]) / secs),
               "shed_or_failed_per_s": round(m["errors"] / secs),
               "p99_ms": round(m["p99_us"] / 1000),
               "probe_health_ok_pct": p["health"]["ok_pct"],
               "probe_health_p99_ms": p["health"]["p99_ms"],
               "probe_api_ok_pct": p["api"]["ok_pct"],
               "rss_mb": f"{rss0:.0f} -> peak {peak:.0f}"}
    drills.record("overload (3,000 connections of list requests)", "wrk", figures, "nothing",
                  drills.alive() and p["health"]["ok_pct"] >= 99.0 and peak < 4 * max(rss0, 50))
    drills.dep.stop_service()
    drills.dep.start_service()
