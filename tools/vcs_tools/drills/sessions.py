"""The drills on the console's sign-in and sessions: bursts of wrong
passwords against the sign-in throttle (an account name may fail 5 times,
the 6th failure locks it; one address may fail 20 times in 15 minutes), and
event streams opened with a member's cookie by a page of another site and
by the console's own pages (a session holds at most 3, a tenant 8 on a
node).

Their clients bind their source addresses, as only the probe does
elsewhere: the throttle counts failures by client address, so each burst
sends from addresses no burst before it used (the service's database keeps
the counts, which the drill forgets as it starts). A burst is 40
connections, far from running out of loopback ports."""

import http.client
import json
import os
import re
import threading
import time

from vcs_tools.api import ms
from vcs_tools.client import exchange

BURST = 40
FREE_ACCOUNT_FAILURES = 5  # domain::free_account_failures
ADDRESS_FAILURES = 20  # domain::address_failures_per_window
STREAMS_PER_SESSION = 3  # event_hub::per_session
STREAMS_PER_TENANT = 8  # event_streams_per_tenant (src/app/components.cpp)
LIFETIME_MS = 3000
# A stream ends at its lifetime once the hub next looks at it (every 500
# ms, its credential every few seconds): it must end within this after it.
LIFETIME_SLACK_S = 6
PASSWORD = "tangerine lattice 42"
STREAM = "/api/v2/events/stream"


def page_headers(port, more=None):
    """A request of the console's own page: the service's Origin and Host."""
    return {"Origin": f"http://127.0.0.1:{port}", "Host": f"127.0.0.1:{port}",
            "Content-Type": "application/json", **(more or {})}


def message(raw):
    try:
        return json.loads(raw).get("message")
    except (ValueError, AttributeError):
        return None


def burst(port, attempts):
    """A wrong password for each (source address, e-mail) of attempts, all
    sent at once, each on a connection of its own. Returns its answers by
    status ("none" for no answer), the ms from the first sent to the last
    answered, the p50 ms of each status, and the answers that broke the
    rules: a 401 without the sign-in's message, a 429 without Retry-After."""
    gate = threading.Barrier(len(attempts))
    rows = [None] * len(attempts)

    def attempt(i, source, email):
        body = json.dumps({"email": email, "password": "a wrong password 0"})
        gate.wait()
        started = time.monotonic()
        try:
            status, headers, raw = exchange(port, "POST", "/api/v2/session", page_headers(port),
                                            body, source, timeout=30)
            retry_after, text = headers.get("Retry-After"), message(raw)
        except (OSError, http.client.HTTPException):
            status, retry_after, text = None, None, None
        rows[i] = (status, retry_after, text, started, time.monotonic())

    threads = [threading.Thread(target=attempt, args=(i, source, email))
               for i, (source, email) in enumerate(attempts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    answers, took = {}, {}
    for status, _, _, started, ended in rows:
        k = str(status) if status is not None else "none"
        answers[k] = answers.get(k, 0) + 1
        took.setdefault(k, []).append(ended - started)
    odd = sum(1 for status, retry_after, text, _, _ in rows
              if (status == 401 and text != "Wrong e-mail or password")
              or (status == 429 and not retry_after))
    return {"answers": dict(sorted(answers.items())),
            "wall_ms": round(1000 * (max(r[4] for r in rows) - min(r[3] for r in rows))),
            "p50_ms": {k: ms(v, 50) for k, v in sorted(took.items())}, "odd_answers": odd}


# Three bursts of 40 wrong passwords at once, each attempt counted before
# its password is hashed: one e-mail from one address (6 answered 401, the
# 6th locking it, 34 429), 40 e-mails from one address (the address's 20
# answered 401, 20 429), and one e-mail from 40 addresses (the lock holds
# across addresses: 6 401, 34 429). Unknown e-mails are throttled as known
# ones are, so none is a member's.
def sign_in_burst(drills):
    port = drills.dep.public_port
    # An earlier run of the drill (or a drill that signed in) left counts.
    drills.dep.psql("vcs", "DELETE FROM sign_in_addresses; DELETE FROM sign_in_accounts")
    run = os.urandom(4).hex()
    locked = FREE_ACCOUNT_FAILURES + 1
    plan = {  # name: (attempts, 401s expected)
        "one_name_one_address": ([("127.0.0.3", f"one-{run}@drill.test")] * BURST, locked),
        "many_names_one_address": ([("127.0.0.4", f"name{i}-{run}@drill.test")
                                    for i in range(BURST)], ADDRESS_FAILURES),
        "one_name_many_addresses": ([(f"127.0.1.{i + 1}", f"spread-{run}@drill.test")
                                     for i in range(BURST)], locked),
    }
    probe = drills.probe.start()
    bursts = {name: burst(port, attempts) for name, (attempts, _) in plan.items()}
    p = probe.stop()
    exact = all(bursts[name]["answers"] == {"401": wrong, "429": BURST - wrong}
                and bursts[name]["odd_answers"] == 0 for name, (_, wrong) in plan.items())
    figures = {**bursts, "probe_api_ok_pct": p["api"]["ok_pct"],
               "probe_api_p99_ms": p["api"]["p99_ms"],
               "probe_health_ok_pct": p["health"]["ok_pct"]}
    drills.record("sign-in bursts (40 wrong passwords at once)", "python, 40 threads a burst",
                  figures, "nothing", drills.alive() and drills.probe_ok(p) and exact)


class Stream:
    """GET /api/v2/events/stream on a connection of its own: its status, and
    while it is 200 the connection, held until closed."""

    def __init__(self, port, headers):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.sock = None
        self.status = self.text = None
        self.retry_after = None
        try:
            self.conn.connect()
            # The answer has no length and closes the connection: the
            # response reads from this socket once the connection lets go.
            self.sock = self.conn.sock
            self.conn.request("GET", STREAM, headers={"Host": f"127.0.0.1:{port}", **headers})
            self.resp = self.conn.getresponse()
            self.status = self.resp.status
            self.retry_after = self.resp.headers.get("Retry-After")
            if self.status != 200:
                self.text = message(self.resp.read())
        except (OSError, http.client.HTTPException):
            self.status = None

    def ended_within(self, seconds):
        """The seconds until the service ended the stream, or None when it
        is still open after `seconds`."""
        started = time.monotonic()
        try:
            while True:
                left = seconds - (time.monotonic() - started)
                if left <= 0:
                    return None
                self.sock.settimeout(left)
                if not self.resp.read1(65536):
                    return time.monotonic() - started
        except TimeoutError:
            return None
        except (OSError, http.client.HTTPException):
            return time.monotonic() - started

    def close(self):
        if self.status == 200:
            self.resp.close()
        if self.sock is not None:
            try:
                self.sock.shutdown(2)
            except OSError:
                pass
            self.sock.close()
        self.conn.close()


def opened(streams, expected=None):
    """Streams' statuses counted ("none" for no answer); each refusal whose
    message lacks `expected` (or a 429 without Retry-After) counted as odd."""
    answers, odd = {}, 0
    for s in streams:
        k = str(s.status) if s.status is not None else "none"
        answers[k] = answers.get(k, 0) + 1
        if s.status != 200 and (expected is None or s.text is None
                                or not re.search(expected, s.text)
                                or (s.status == 429 and not s.retry_after)):
            odd += 1
    return dict(sorted(answers.items())), odd


def owner_session(drills, tenant_id):
    """A new owner of the tenant, signed in through its set-up link: (its
    cookie, its session's CSRF token)."""
    port = drills.dep.public_port
    invited = drills.op.ok("POST", f"/admin/v1/tenants/{tenant_id}/members",
                           {"email": f"streams-{os.urandom(4).hex()}@drill.test",
                            "role": "owner"})
    url = invited.get("setup_url") or invited["data"]["setup_url"]
    token = url.split("#token=", 1)[1]
    status, headers, raw = exchange(port, "POST", "/api/v2/session/setup", page_headers(port),
                                    json.dumps({"token": token, "password": PASSWORD}))
    cookie = re.search(r"__Host-vcs_session=[0-9a-f]{64}", headers.get("Set-Cookie") or "")
    if status != 201 or not cookie:
        raise RuntimeError(f"POST /api/v2/session/setup: {status} {raw[:300]!r}")
    return cookie.group(0), json.loads(raw)["data"]["csrf_token"]


def stream_places(drills, key, cookie, csrf):
    """A page of another site opens 20 streams with the member's cookie at
    once, then the console's own pages one more than a session may hold
    (shown by Sec-Fetch-Site: same-origin, the second by the session's
    X-CSRF-Token), and while they are held the tenant's key one more than
    the tenant's places left. Returns the figures and whether every answer
    was the one due."""
    port = drills.dep.public_port
    foreign = [None] * 20

    def open_foreign(i):
        foreign[i] = Stream(port, {"Cookie": cookie, "Sec-Fetch-Site": "cross-site"})

    threads = [threading.Thread(target=open_foreign, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in foreign:
        s.close()
    own = [Stream(port, {"Cookie": cookie, **({"X-CSRF-Token": csrf} if i == 1 else
                                               {"Sec-Fetch-Site": "same-origin"})})
           for i in range(STREAMS_PER_SESSION + 1)]
    keyed = [Stream(port, {"Authorization": f"Bearer {key}"})
             for _ in range(STREAMS_PER_TENANT - STREAMS_PER_SESSION + 1)]
    held = sum(1 for s in own + keyed if s.status == 200)
    for s in own + keyed:
        s.close()
    cross_site, odd_foreign = opened(foreign, "this service's own pages")
    own_page, odd_own = opened(own, f"A session may hold at most {STREAMS_PER_SESSION} ")
    by_key, odd_key = opened(keyed, f"A tenant may hold at most {STREAMS_PER_TENANT} ")
    figures = {"cross_site_cookie": cross_site, "own_page_cookie": own_page,
               "api_key": by_key, "held_at_once": held,
               "odd_refusals": odd_foreign + odd_own + odd_key}
    exact = (cross_site == {"403": 20}
             and own_page == {"200": STREAMS_PER_SESSION, "429": 1}
             # Places are taken in order: the refused one is the last.
             and [s.status for s in own][-1] == 429
             and by_key == {"200": STREAMS_PER_TENANT - STREAMS_PER_SESSION, "429": 1}
             and [s.status for s in keyed][-1] == 429
             and held == STREAMS_PER_TENANT and figures["odd_refusals"] == 0)
    return figures, exact


def stream_lifetime(drills, key):
    """The node restarted with streams lasting LIFETIME_MS: how long a key's
    stream lasted (None: not ended within its lifetime and the slack), then
    the node back to its settings."""
    drills.dep.stop_service()
    drills.dep.start_service({"VCS_EVENT_STREAM_LIFETIME_MS": str(LIFETIME_MS)})
    try:
        s = Stream(drills.dep.public_port, {"Authorization": f"Bearer {key}"})
        lasted = s.ended_within(LIFETIME_MS / 1000 + LIFETIME_SLACK_S) \
            if s.status == 200 else None
        s.close()
        return s.status, lasted
    finally:
        drills.dep.stop_service()
        drills.dep.start_service()


# The event stream's places: a page of another site that opens the stream
# URL with a member's cookie is refused (403), the console's own pages hold
# at most 3 streams for a session (429), and the tenant's key still has its
# places up to the tenant's 8; then, on a node whose streams last 3 s, a
# key's stream ends within its lifetime and 6 s.
def stream_slots(drills):
    tenant = drills.op.ok("POST", "/admin/v1/tenants", {"name": "streams", "plan": "PRO"})
    key = tenant["api_key"]["key"]
    cookie, csrf = owner_session(drills, tenant["tenant_id"])
    probe = drills.probe.start()
    figures, exact = stream_places(drills, key, cookie, csrf)
    p = probe.stop()
    status, lasted = stream_lifetime(drills, key)
    figures.update(lifetime_ms=LIFETIME_MS, lifetime_stream=status,
                   lifetime_stream_ended_after_s=None if lasted is None else round(lasted, 2),
                   probe_api_ok_pct=p["api"]["ok_pct"], probe_api_p99_ms=p["api"]["p99_ms"],
                   probe_health_ok_pct=p["health"]["ok_pct"])
    drills.record("event streams opened through a member's cookie and a key",
                  "python, a connection a stream", figures, "nothing",
                  drills.alive() and drills.probe_ok(p) and exact and status == 200
                  and lasted is not None)
