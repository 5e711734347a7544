"""The load of the failover and switchover drills: lead adds (single and
bulk), v1 updates of one lead, payment updates and dial rounds on both
nodes, billing sweeps moving time ahead, and node 0's readiness."""

import datetime
import threading
import time

from vcs_tools.client import request


# A client waits a little after a refusal (the 503s say
# Retry-After: 1), as a dialer's would: the drill measures the
# service, not how fast loopback runs out of ports.
def pause(status):
    if status is None or status >= 300:
        time.sleep(0.2)


class Load:
    """Threads sending the load until stop(); every answer counted by status
    (`answers`) and what was acknowledged kept (`acked`)."""

    def __init__(self, ports, token, s):
        self.ports, self.token = ports, token
        self.key, self.tenant_id, self.payment = s.key, s.tenant_id, s.payment
        self.adds, self.bulks, self.updated = s.adds, s.bulks, s.updated
        self.answers, self.lock = {}, threading.Lock()
        self.acked = {"adds": [], "bulk": [], "update": 0, "payment": 0, "sweep": None}
        self.write_times = []  # (started, finished) of acknowledged single adds
        self.readiness = []  # (time, /readyz status) of node 0
        # Billing sweeps on both nodes, each acting ten days after the
        # last acknowledged one: subscriptions roll over about every third
        # sweep, and a sweep refused is asked again for the same time.
        self.sweep_from = datetime.datetime.now(datetime.timezone.utc)
        self.running = True
        self.threads = [threading.Thread(target=self.adder, args=(n,)) for n in range(3)]
        self.threads += [threading.Thread(target=f)
                         for f in (self.bulk_adder, self.updater, self.payer, self.dialer,
                                   self.sweeper, self.ready_probe)]
        for t in self.threads:
            t.start()

    def stop(self):
        self.running = False
        for t in self.threads:
            t.join()

    def writes_done_after(self, t):
        """When the acknowledged single adds sent after t were answered."""
        with self.lock:
            return [end for began, end in self.write_times if began > t]

    def count(self, status):
        self.answers[str(status)] = self.answers.get(str(status), 0) + 1

    def keep(self, send, ok):
        """send(i) over and over until stop(), i from 1: it answers (status,
        acknowledge); each status is counted and, when it is ok,
        acknowledge() runs (under the lock); a pause after a refusal."""
        i = 0
        while self.running:
            i += 1
            status, acknowledge = send(i)
            with self.lock:
                self.count(status)
                if status == ok:
                    acknowledge()
            pause(status)

    def adder(self, n):
        def send(i):
            phone = f"+1648{n:02d}{i:05d}"
            began = time.monotonic()
            status, _, _ = request(self.ports[i % 2][0], "POST",
                                   f"/api/v2/voice-campaigns/{self.adds}/leads", self.key,
                                   {"phone_number": phone}, timeout=15)

            def acknowledge():
                self.acked["adds"].append(phone)
                self.write_times.append((began, time.monotonic()))
            return status, acknowledge
        self.keep(send, 201)

    def bulk_adder(self):
        def send(i):
            items = [{"phone_number": f"+1649{i:05d}{j:02d}"} for j in range(25)]
            status, _, _ = request(self.ports[i % 2][0], "POST",
                                   f"/api/v2/voice-campaigns/{self.bulks}/leads/bulk", self.key,
                                   items, timeout=15)
            return status, lambda: self.acked["bulk"].extend(x["phone_number"] for x in items)
        self.keep(send, 200)

    def patcher(self, path, body, field):
        """PATCH path with body(i) on alternate nodes; acked[field] = i when
        answered 200."""
        def send(i):
            status, _, _ = request(self.ports[i % 2][0], "PATCH", path, self.key, body(i),
                                   timeout=15)
            return status, lambda: self.acked.update({field: i})
        self.keep(send, 200)

    def updater(self):
        self.patcher(f"/v1/api/voice-campaigns/{self.updated}/lead/update",
                     lambda i: {"tenant_id": self.tenant_id, "phone_number": "+16470000000",
                                "custom_fields": {"seq": i}}, "update")

    def payer(self):
        self.patcher(f"/api/v2/external-billing/payment-requests/{self.payment}/update",
                     lambda i: {"status": "PAID" if i % 2 else "PENDING",
                                "external_payment_id": f"pi_{i}"}, "payment")

    def dialer(self):
        i = 0
        while self.running:
            i += 1
            status, _, _ = request(self.ports[i % 2][1], "POST", "/admin/v1/dialer/run",
                                   self.token, {}, timeout=30)
            with self.lock:
                self.count(status)
            time.sleep(0.3)

    def sweeper(self):
        i = done = 0
        while self.running:
            i += 1
            when = self.sweep_from + datetime.timedelta(days=10 * (done + 1))
            status, _, _ = request(self.ports[i % 2][1], "POST", "/admin/v1/billing/sweep",
                                   self.token, {"now": when.isoformat()}, timeout=30)
            with self.lock:
                self.count(status)
                if status == 200:
                    done += 1
                    self.acked["sweep"] = when
            pause(status)
            time.sleep(0.2)

    def ready_probe(self):
        while self.running:
            status, _, _ = request(self.ports[0][1], "GET", "/readyz", timeout=2)
            self.readiness.append((time.monotonic(), status))
            time.sleep(0.1)
