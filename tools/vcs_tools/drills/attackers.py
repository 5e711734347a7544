"""The attackers of the neighbour drills, each run in a process of its own
(Victim.beside starts it) with a flood of requests from threads."""

import base64
import http.client
import itertools
import json
import os
import random
import subprocess
import threading
import time

from vcs_tools.api import ms
from vcs_tools.client import exchange, request


def flood(kinds, seconds, ready):
    """An attacker's load: each of kinds (i -> request()'s answer) on a thread
    of its own, unpaced, for `seconds`; `ready` is set as it starts (the
    attack starts once its bodies are built). Returns the answers by status
    ("none" for no answer) and the seconds of each answer."""
    statuses, took = {}, []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    ready.set()

    def loop(make):
        i = 0
        while time.monotonic() < stop_at:
            i += 1
            status, _, secs = make(i)
            with lock:
                k = str(status) if status is not None else "none"
                statuses[k] = statuses.get(k, 0) + 1
                if status is not None:
                    took.append(secs)

    threads = [threading.Thread(target=loop, args=(k,)) for k in kinds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses, took


# Each attacker below runs in a process of its own (the victim's client
# measures the service, not a shared interpreter lock) and puts its answers
# by status ("none" for no answer within 30 s) and figures of its own.

def attack(port, key, campaign, seconds, ready, results):
    """neighbour's attacker: every heavy request kind the API accepts, and an
    unpaced flood of list requests."""
    users = [{"email": f"a{i}@attacker.io", "password": "correct horse"} for i in range(25)]
    # Serialized once: the service's work is under test, not the client's.
    removals = json.dumps([{"phone_number": f"+1660{i:07d}"} for i in range(100_000)]).encode()
    huge = json.dumps([{"phone_number": f"+1661{i:07d}"} for i in range(1_500_000)]).encode()

    def send(method, path, body=None):
        return request(port, method, path, key, body, timeout=30)

    kinds = [
        lambda i: send("POST", "/api/v2/clients/create",
                       {"client_users": [dict(u, email=f"{i}-{u['email']}") for u in users],
                        "client_details": {"name": "A", "email": f"a{i}@attacker.io"},
                        "client_asset_group": {"name": "g"}}),
        lambda i: send("DELETE", f"/api/v2/voice-campaigns/{campaign}/leads/remove/bulk", removals),
        lambda i: send("POST", f"/api/v2/voice-campaigns/{campaign}/leads/bulk", huge),
    ] + [lambda i: send("GET", f"/api/v2/voice-campaigns/{campaign}/leads/list?limit=50")] * 8
    statuses, _ = flood(kinds, seconds, ready)
    results.put({"answers": statuses})


def value_bomb_attack(port, key, campaign, seconds, ready, results):
    """value_bomb's attacker: bulk adds whose one lead holds a 30-million-element
    array (60 MB) on 4 threads, and bodies of 70,000 small leads (4.5 million
    JSON values) on 2. A 503 counts as "503" only with Retry-After."""
    bomb = (b'[{"phone_number":"+16615550000","custom_fields":{"x":['
            + b"0," * 29_999_999 + b"0]}}]")
    zeros = ",".join(["0"] * 60)
    values = ("[" + ",".join(f'{{"phone_number":"+1662{i:07d}","custom_fields":{{"x":[{zeros}]}}}}'
                             for i in range(70_000)) + "]").encode()
    path = f"/api/v2/voice-campaigns/{campaign}/leads/bulk"

    def send(body):
        started = time.monotonic()
        try:
            status, headers, _ = exchange(port, "POST", path,
                                          {"Content-Type": "application/json",
                                           "Authorization": f"Bearer {key}"}, body, timeout=30)
            retry_later = status != 503 or headers.get("Retry-After")
            return (status if retry_later else "503 without Retry-After", None,
                    time.monotonic() - started)
        except (OSError, http.client.HTTPException):
            return None, None, time.monotonic() - started

    statuses, took = flood([lambda i: send(bomb)] * 4 + [lambda i: send(values)] * 2,
                           seconds, ready)
    results.put({"answers": statuses, "answer_p50_ms": ms(took, 50)})


def spelling_attack(port, key, campaign, seconds, ready, results):
    """header_spelling_flood's attacker: lead list reads with its own key
    spelled every way RFC 9110 allows (the scheme in any case, spaces around
    the token) on 8 threads, and with junk keys (random, and its own with the
    last character changed) on 8, unpaced, a new connection per request."""
    path = f"/api/v2/voice-campaigns/{campaign}/leads/list?limit=50"
    spellings = [f"Bearer {key}", f"bearer {key}", f"BEARER  {key}", f"Bearer {key} ",
                 f"bEaReR   {key}   "]
    near = key[:-1] + ("x" if key[-1] != "x" else "y")
    junk = [lambda: f"Bearer vcs_{os.urandom(24).hex()}", lambda: f"Bearer {near}",
            lambda: "bearer " + base64.urlsafe_b64encode(os.urandom(random.randint(1, 150)))
            .decode()]
    kinds = [lambda i: request(port, "GET", path, authorization=spellings[i % len(spellings)],
                               timeout=30)] * 8
    kinds += [lambda i: request(port, "GET", path, authorization=junk[i % len(junk)](),
                                timeout=30)] * 8
    statuses, took = flood(kinds, seconds, ready)
    results.put({"answers": statuses, "answer_p50_ms": ms(took, 50)})


def taken_email_attack(port, key, body, seconds, ready, results):
    """taken_email_flood's attacker: the same client create (25 users whose
    e-mails it has taken already) on 8 threads, unpaced."""
    statuses, took = flood(
        [lambda i: request(port, "POST", "/api/v2/clients/create", key, body, timeout=30)] * 8,
        seconds, ready)
    results.put({"answers": statuses, "answer_p50_ms": ms(took, 50)})


def slow_dns_attack(port, key, campaign, hook_port, psql, tenant_row, seconds, ready, results):
    """slow_dns's attacker: its campaign's webhook_url moved to a new name
    under slow.test on 4 threads (each change waits up to 2 s for the name),
    test events to that campaign on 2, and 20 deliveries to new names under
    slow.test put in its outbox every 0.1 s. A name checked through the API
    is remembered as failed for 30 s, so its deliveries fail at once; the
    outbox rows stand for events to names not looked up lately (as
    tests/e2e/outbound_lookup_test.cpp queues them)."""
    names = itertools.count()
    outbox = subprocess.Popen(psql, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    done = threading.Event()

    def fill():
        ready.wait()
        n = 0
        while not done.is_set():
            outbox.stdin.write(
                "INSERT INTO webhook_deliveries (tenant_id, url, event_id, event_type, payload) "
                f"SELECT {tenant_row}, 'http://h{n}-' || g || '.slow.test:{hook_port}/hook', "
                f"'evt-slow-{os.getpid()}-{n}-' || g, 'webhook.test', '{{}}' "
                "FROM generate_series(1, 20) g;\n")
            outbox.stdin.flush()
            n += 1
            time.sleep(0.1)

    filler = threading.Thread(target=fill)
    filler.start()
    move = lambda i: request(port, "PATCH", f"/api/v2/voice-campaigns/{campaign}", key,
                             {"webhook_url": f"http://a{next(names)}.slow.test:{hook_port}/hook"},
                             timeout=30)
    test = lambda i: request(port, "POST", f"/api/v2/voice-campaigns/{campaign}/webhook-test",
                             key, {}, timeout=30)
    statuses, _ = flood([move] * 4 + [test] * 2, seconds, ready)
    done.set()
    filler.join()
    outbox.stdin.close()
    outbox.wait()
    results.put({"answers": statuses})
