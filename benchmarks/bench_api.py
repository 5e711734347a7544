"""What benchmarks/run and benchmarks/scale share: logging, a JSON client
of the API, lead bodies, waiting for a campaign's leads, percentiles."""

import json
import math
import sys
import time
import urllib.error
import urllib.request


def log(msg):
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


class Api:
    """A tiny JSON client for one base URL and bearer token."""

    def __init__(self, base, token):
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method, path, body=None, timeout=600):
        """body: a JSON value, or bytes already encoded (not timed by callers)."""
        data = body if isinstance(body, bytes) else \
            None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, json.loads(resp.read() or b"{}")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def ok(self, method, path, body=None, expect=(200, 201)):
        status, doc = self.call(method, path, body)
        if status not in expect:
            raise RuntimeError(f"{method} {path}: {status} {doc}")
        return doc


def phones(prefix, start, count):
    return [{"phone_number": f"{prefix}{i:07d}"} for i in range(start, start + count)]


def lead_items(prefix, start, count, tag="seed"):
    """Leads with names, e-mail and three custom fields, like the shared
    peers' seeded rows and bulk bodies."""
    return [{"phone_number": f"{prefix}{i:07d}", "first_name": f"First{i}",
             "last_name": f"Last{i}", "email": f"lead{i}.{tag}@example.com",
             "custom_fields": {"plan": ("basic", "pro", "enterprise")[i % 3], "score": i % 100,
                               "segment": tag}}
            for i in range(start, start + count)]


def percentile(sorted_values, p):
    """The p-th percentile (nearest rank) of ascending values (also the
    drills': scripts/reliability)."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def total_count(api, campaign):
    doc = api.ok("GET", f"/api/v2/voice-campaigns/{campaign}/leads/list?limit=1")
    return doc["page_info"]["total_count"]


def wait_total(api, campaign, total, timeout, interval=0.05):
    """Polls until the campaign lists total leads; returns the polls made."""
    deadline = time.monotonic() + timeout
    polls = 0
    while time.monotonic() < deadline:
        polls += 1
        if total_count(api, campaign) >= total:
            return polls
        time.sleep(interval)
    raise RuntimeError(f"campaign {campaign} did not reach {total} leads in {timeout} s")


def new_campaign(api, name):
    return api.ok("POST", "/api/v2/voice-campaigns", {"name": name})["data"]["campaign_id"]


def empty_campaign(api, campaign):
    """Removes every lead of a campaign (ids listed first, then removed in
    bulk) and ENDs it: what a run against a deployment leaves behind."""
    ids, offset = [], 0
    while True:
        page = api.ok("GET", f"/api/v2/voice-campaigns/{campaign}/leads/list?limit=200"
                             f"&offset={offset}")
        ids += [lead["id"] for lead in page["leads"]]
        if not page["page_info"]["has_next_page"]:
            break
        offset += 200
    for start in range(0, len(ids), 10_000):
        api.ok("DELETE", f"/api/v2/voice-campaigns/{campaign}/leads/remove/bulk",
               [{"campaign_lead_id": i} for i in ids[start:start + 10_000]])
    api.ok("PATCH", f"/api/v2/voice-campaigns/{campaign}/status", {"status": "ENDED"})
    return len(ids)


def load_leads(api, campaign, count, prefix, chunk=100_000, items=phones):
    for start in range(0, count, chunk):
        api.ok("POST", f"/api/v2/voice-campaigns/{campaign}/leads/bulk",
               items(prefix, start, min(chunk, count - start)))
    wait_total(api, campaign, count, timeout=max(120, count / 2000))
