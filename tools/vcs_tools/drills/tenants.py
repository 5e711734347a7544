"""The tenants of the neighbour drills: a victim running a paced mix on
connections it keeps open, an attacker sending from a process of its own,
and the verdict on how the victim fared."""

import multiprocessing
import threading
import time

from vcs_tools.api import Api, load_leads, ms, new_campaign, row_id
from vcs_tools.client import KeepAlive


class Tenant:
    """A PRO tenant of its own with a campaign."""

    def __init__(self, dep, op, name):
        tenant = op.ok("POST", "/admin/v1/tenants", {"name": name, "plan": "PRO"})
        self.key, self.id = tenant["api_key"]["key"], tenant["tenant_id"]
        self.row = row_id(self.id)
        self.port = dep.public_port
        self.api = Api(f"http://127.0.0.1:{self.port}", self.key)
        self.campaign = new_campaign(self.api, name)


class Victim(Tenant):
    """The well-behaved tenant of the neighbour drills: 12 clients, each a
    lead list read (page 1) or a v1 lead update of its 1,000 leads every
    100 ms, on connections it keeps open, as a dialer's client pool does
    (an attacker opens one per request, the harsher load)."""

    def __init__(self, dep, op):
        super().__init__(dep, op, "victim")
        load_leads(self.api, self.campaign, 1000, "+1650")
        self.samples = []  # (monotonic start, status, seconds, method)
        self.lock = threading.Lock()
        self.running = False

    def client(self, n):
        conn = KeepAlive(f"http://127.0.0.1:{self.port}", 10)
        i = 0
        while self.running:
            i += 1
            if i % 2:
                args = ("GET", f"/api/v2/voice-campaigns/{self.campaign}/leads/list?limit=50",
                        self.key, None)
            else:
                args = ("PATCH", f"/v1/api/voice-campaigns/{self.campaign}/lead/update",
                        self.key, {"tenant_id": self.id,
                                   "phone_number": f"+1650{(n * 83 + i) % 1000:07d}",
                                   "first_name": f"v{i}"})
            at = time.monotonic()
            status, secs = conn.request(*args)
            with self.lock:
                self.samples.append((at, status, secs, args[0]))
            time.sleep(max(0.0, 0.1 - secs))

    def beside(self, seconds, target, args):
        """The mix alone for `seconds`, then while target(*args, seconds,
        ready, results) attacks from a process of its own, then 3 s after.
        The attack lasts from its bodies being built (`ready`) to its last
        answer (a heavy request may outlast `seconds`). Returns what it put in
        `results` and the three windows (monotonic start, end)."""
        def phase(secs):
            start = time.monotonic()
            time.sleep(secs)
            return start, time.monotonic()

        self.running = True
        threads = [threading.Thread(target=self.client, args=(n,)) for n in range(12)]
        for t in threads:
            t.start()
        try:
            alone = phase(seconds)
            results = multiprocessing.Queue()
            ready = multiprocessing.Event()
            attacker = multiprocessing.Process(target=target,
                                               args=args + (seconds, ready, results))
            attacker.start()
            ready.wait(120)
            attack_start = time.monotonic()
            outcome = results.get(timeout=seconds + 120)
            attacker.join()
            attacked = (attack_start, time.monotonic())
            after = phase(3)
        finally:  # a failed attack must not leave the clients running
            self.running = False
            for t in threads:
                t.join()
        return outcome, (alone, attacked, after)

    def stats(self, window):
        rows = [s for s in self.samples if window[0] <= s[0] < window[1]]
        lat = [s[2] for s in rows if s[1] is not None]
        errors = {}
        for s in rows:
            if s[1] != 200:
                errors[str(s[1])] = errors.get(str(s[1]), 0) + 1
        return {"requests": len(rows), "errors": sum(errors.values()), "error_statuses": errors,
                "p50_ms": ms(lat, 50), "p99_ms": ms(lat, 99),
                "p99_list_ms": ms([s[2] for s in rows if s[1] is not None and s[3] == "GET"], 99),
                "p99_update_ms": ms([s[2] for s in rows if s[1] is not None and s[3] == "PATCH"],
                                    99)}


def neighbours(drills, extra_env=None):
    """The service restarted with the plans' own rate limits (and
    extra_env), a victim tenant with its leads and an attacker tenant."""
    drills.dep.stop_service()
    drills.dep.start_service({"VCS_TENANT_RATE_LIMIT": "plan", **(extra_env or {})})
    return Victim(drills.dep, drills.op), Tenant(drills.dep, drills.op, "attacker")


def victim_verdict(drills, victim, windows, answers, retry_later=False):
    """The victim's figures in each window beside the attack's answers, and
    whether the service held: alive, the attack sent something (one that
    sent nothing proves nothing), every victim answer 200 and no attack
    answer 5xx (a "503", which the attacker counts only with Retry-After,
    allowed with `retry_later`); without --ci also every attack request
    answered, the victim's p99 under attack at most 3 times its p99 alone
    and back to normal within 1 s after it."""
    attacked = windows[1]
    before, during, later = (victim.stats(w) for w in windows)
    slow = 3 * (before["p99_ms"] or 0) / 1000
    late = [s[0] + s[2] for s in victim.samples if s[0] >= attacked[1] and s[2] > slow]
    recovery_ms = round(1000 * max(0.0, max(late) - attacked[1])) if late else 0
    victim_errors = before["errors"] + during["errors"] + later["errors"]
    server_errors = sum(n for k, n in answers.items()
                        if k.startswith("5") and not (retry_later and k == "503"))
    figures = {"victim_alone": before, "victim_under_attack": during,
               "victim_after": later, "victim_errors": victim_errors,
               "p99_ratio": round(during["p99_ms"] / before["p99_ms"], 2)
               if before["p99_ms"] and during["p99_ms"] else None,
               "recovery_ms": recovery_ms, "attacker_answers": answers}
    ok = drills.alive() and sum(answers.values()) > 0 and victim_errors == 0 and \
        server_errors == 0
    if not drills.args.ci:
        ok = ok and answers.get("none", 0) == 0 and recovery_ms <= 1000 and \
            figures["p99_ratio"] is not None and figures["p99_ratio"] <= 3.0
    return figures, ok
