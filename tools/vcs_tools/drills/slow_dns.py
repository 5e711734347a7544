"""slow_dns: one tenant's webhooks go to names on a name server that never
answers (NameServer; /etc/resolv.conf points at it for the drill, and is put
back whatever happens): the other tenant's webhooks are still delivered
promptly (p99 within 1 s, without --ci) and its API mix is unaffected."""

import datetime
import os
import signal
import socket
import sys
import threading
import time

from vcs_tools.api import ms
from vcs_tools.client import request
from vcs_tools.deployment import PGBIN
from vcs_tools.drills.attackers import slow_dns_attack
from vcs_tools.drills.tenants import neighbours, victim_verdict
from vcs_tools.drills.webhooks import WebhookReceiver

TITLE = "slow name server (another tenant's webhook names never answer)"
TOOL = "python (two processes), a UDP name server on 127.0.0.77"


def slow_dns(drills):
    if os.geteuid() != 0:
        return drills.record(TITLE, TOOL, {"skipped": "needs root (port 53, /etc/resolv.conf)"},
                             "nothing", None)
    try:
        dns = NameServer()
    except OSError as e:
        return drills.record(TITLE, TOOL, {"skipped": f"127.0.0.77:53 is taken ({e})"},
                             "nothing", None)
    with open("/etc/resolv.conf") as f:
        resolv = f.read()
    # A SIGTERM, too, ends the drill through the finally below.
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    receiver = WebhookReceiver()
    tests = None
    try:
        with open("/etc/resolv.conf", "w") as f:
            f.write("nameserver 127.0.0.77\noptions timeout:2 attempts:1\n")
        hook_port = receiver.server.server_address[1]
        victim, attacker = set_up_tenants(drills, hook_port)
        tests = VictimTests(victim)
        outcome, windows = victim.beside(
            drills.args.duration, slow_dns_attack,
            (drills.dep.public_port, attacker.key, attacker.campaign, hook_port,
             [f"{PGBIN}/psql", drills.dep.url_of("vcs"), "-q"], attacker.row))
        tests.stop()
        figures, ok = checks(drills, victim, attacker, windows, outcome, tests, receiver,
                             dns)
        # The attacker's deliveries would go on failing against the real
        # name server in the drills after this one.
        drills.dep.psql("vcs", "UPDATE webhook_deliveries SET status = 'dead' "
                               f"WHERE tenant_id = {attacker.row} AND status = 'pending'")
    finally:
        if tests:
            tests.posting = False
        receiver.close()
        with open("/etc/resolv.conf", "w") as f:
            f.write(resolv)
        dns.close()
        signal.signal(signal.SIGTERM, previous)
    drills.dep.stop_service()
    drills.dep.start_service()
    drills.record(TITLE, TOOL, figures, "nothing", ok)


def set_up_tenants(drills, hook_port):
    """The victim and the attacker on a node that may send webhooks to
    loopback, sweeping its outbox every 50 ms; the victim's webhooks to a
    name under fast.test, the attacker's to one under slow.test."""
    victim, attacker = neighbours(drills, {"VCS_OUTBOUND_ALLOW": "127.0.0.1/32",
                                           "VCS_WEBHOOK_INTERVAL_MS": "50"})
    for tenant in (victim, attacker):
        drills.op.ok("POST", f"/admin/v1/tenants/{tenant.id}/webhook-secret", {})
    victim.api.ok("PATCH", f"/api/v2/voice-campaigns/{victim.campaign}",
                  {"webhook_url": f"http://hook.fast.test:{hook_port}/hook"})
    # Takes 2 s: the name is checked, and never answers.
    attacker.api.ok("PATCH", f"/api/v2/voice-campaigns/{attacker.campaign}",
                    {"webhook_url": f"http://first.slow.test:{hook_port}/hook"})
    return victim, attacker


class VictimTests:
    """The victim's test events, 10 a second through every phase: `sent`
    holds (monotonic, created_at epoch s, event id), `errors` the other
    answers by status."""

    def __init__(self, victim):
        self.victim = victim
        self.sent, self.errors = [], {}
        self.posting = True
        self.thread = threading.Thread(target=self.post, daemon=True)
        self.thread.start()

    def post(self):
        victim = self.victim
        while self.posting:
            status, doc, _ = request(
                victim.port, "POST",
                f"/api/v2/voice-campaigns/{victim.campaign}/webhook-test", victim.key, {},
                timeout=10)
            if status == 202:
                event = doc["data"]
                created = datetime.datetime.fromisoformat(event["created_at"]).timestamp()
                self.sent.append((time.monotonic(), created, event["event_id"]))
            else:
                self.errors[str(status)] = self.errors.get(str(status), 0) + 1
            time.sleep(0.1)

    def stop(self):
        self.posting = False
        self.thread.join()


def received(receiver, sent):
    """When each webhook arrived (epoch s), waiting up to 30 s for late
    ones (they count by their latency), and how many never did."""
    wall = time.time() - time.monotonic()
    deadline = time.monotonic() + 30
    while True:
        got = {}
        for at, event in receiver.snapshot():
            got.setdefault(event, at + wall)
        missing = sum(1 for _, _, event in sent if event not in got)
        if not missing or time.monotonic() > deadline:
            return got, missing
        time.sleep(0.2)


def checks(drills, victim, attacker, windows, outcome, tests, receiver, dns):
    """The victim's verdict, its webhooks' latency in each window, and the
    attacker's outbox: (figures, passed)."""
    got, missing = received(receiver, tests.sent)

    def hooks(window):
        mine = [(created, event) for at, created, event in tests.sent
                if window[0] <= at < window[1]]
        lat = [got[event] - created for created, event in mine if event in got]
        return {"sent": len(mine), "delivered": len(lat), "p50_ms": ms(lat, 50),
                "p99_ms": ms(lat, 99)}

    figures, ok = victim_verdict(drills, victim, windows, outcome["answers"])
    figures.update(
        victim_webhooks=dict(zip(("alone", "under_attack", "after"), map(hooks, windows))),
        victim_webhook_errors=tests.errors, victim_webhooks_not_delivered=missing,
        attacker_outbox={status: int(n) for status, n in (
            line.split("|") for line in drills.dep.psql(
                "vcs", "SELECT status, count(*) FROM webhook_deliveries "
                       f"WHERE tenant_id = {attacker.row} GROUP BY status").splitlines())},
        slow_name_queries=dns.slow_queries)
    ok = ok and not tests.errors and not missing
    if not drills.args.ci:
        p99 = figures["victim_webhooks"]["under_attack"]["p99_ms"]
        ok = ok and p99 is not None and p99 <= 1000
    return figures, ok


class NameServer:
    """slow_dns's name server on 127.0.0.77:53 (UDP), as
    tests/e2e/outbound_lookup_test.cpp has it: names under fast.test are
    127.0.0.1 (A; no AAAA), names under slow.test never get an answer.
    Raises OSError when the port is taken."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self.sock.bind(("127.0.0.77", 53))
        except OSError:
            self.sock.close()
            raise
        self.sock.settimeout(0.1)
        self.slow_queries = 0
        self.running = True
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while self.running:
            try:
                q, peer = self.sock.recvfrom(512)
            except socket.timeout:
                continue
            # The question: labels from byte 12, then its type and class.
            labels, at = [], 12
            while at < len(q) and q[at]:
                labels.append(q[at + 1:at + 1 + q[at]].decode("ascii", "replace").lower())
                at += q[at] + 1
            if len(q) < 17 or at + 5 > len(q):
                continue
            name = ".".join(labels) + "."
            if name.endswith("slow.test."):
                self.slow_queries += 1
                continue
            known = name.endswith("fast.test.")
            answer = known and (q[at + 1] << 8 | q[at + 2]) == 1
            r = bytearray(q[:at + 5])
            r[2:4] = bytes([0x81, 0x80 if known else 0x83])  # NOERROR or NXDOMAIN
            r[4:12] = bytes([0, 1, 0, 1 if answer else 0, 0, 0, 0, 0])
            if answer:
                r += b"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x00\x00\x04\x7f\x00\x00\x01"
            self.sock.sendto(bytes(r), peer)

    def close(self):
        self.running = False
        self.thread.join()
        self.sock.close()
