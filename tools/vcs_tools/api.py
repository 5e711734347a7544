"""What the benchmarks and the drills share: a JSON client of the API, lead
bodies, waiting for a campaign's leads, percentiles."""

import base64
import json
import math
import time
import urllib.error
import urllib.request


class Api:
    """A tiny JSON client for one base URL and bearer token."""

    def __init__(self, base, token):
        self.base = base.rstrip("/")
        self.token = token

    def send(self, method, path, data=None, headers=None, timeout=600):
        """One request of bytes as they are, with more headers if given:
        (status, headers, body bytes); an error status is answered too."""
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        req.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def call(self, method, path, body=None, timeout=600):
        """body: a JSON value, or bytes already encoded (not timed by callers)."""
        data = body if isinstance(body, bytes) else \
            None if body is None else json.dumps(body).encode()
        status, _, raw = self.send(method, path, data, timeout=timeout)
        return status, json.loads(raw or b"{}")

    def ok(self, method, path, body=None, expect=(200, 201)):
        status, doc = self.call(method, path, body)
        if status not in expect:
            raise RuntimeError(f"{method} {path}: {status} {doc}")
        return doc

    def metrics(self, timeout):
        """The listener's /metrics text (the operator listener's, with its
        token); an error status raises."""
        req = urllib.request.Request(self.base + "/metrics")
        req.add_header("Authorization", f"Bearer {self.token}")
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.read().decode()


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
    """The p-th percentile (nearest rank) of ascending values."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def row_id(global_id):
    """The database id inside a global id (base64 of "Kind:id"), for SQL."""
    return int(base64.b64decode(global_id).decode().split(":")[1])


def ms(seconds, p):
    """The p-th percentile of seconds, in ms (None for none)."""
    return round(1000 * percentile(sorted(seconds), p), 1) if seconds else None


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


def new_provider(api, api_key, limit):
    """A simulated voice provider (provider_b) of `limit` lines: its id."""
    return api.ok("POST", "/api/v2/voice-pod", {
        "voice_provider": "provider_b", "provider_b_api_key": api_key,
        "concurrency_limit": limit})["data"]["voice_provider_id"]


def new_product(op, tenant_id, product_id, name, minutes, price_id):
    """A flat product of a tenant at 49 USD a month (operator API): its id."""
    return op.ok("POST", f"/admin/v1/tenants/{tenant_id}/products", {
        "product_id": product_id, "name": name, "pricing_model": "flat",
        "min_minutes_included": minutes, "additional_minute_price": "0.02",
        "prices": [{"price_id": price_id, "unit_amount": "49", "currency": "USD",
                    "interval": "month"}]})["product_id"]


def new_client(api, name, email, password, campaigns, product=None):
    """A client with one user, holding `campaigns`, billed on product
    (product id, price id) when given: its id."""
    body = {"client_users": [{"email": email, "password": password}],
            "client_details": {"name": name, "email": email},
            "client_asset_group": {"name": name},
            "assigned_resources": {"campaign": campaigns}}
    if product:
        body["billing_provider"] = {"type": "processor", "selected_product": {
            "product_id": product[0], "price_ids": [product[1]]}}
    return api.ok("POST", "/api/v2/clients/create", body)["data"]["client_id"]


def subscriptions(api, client):
    return api.ok("GET", "/api/v2/external-billing/subscriptions?client_id=" + client)["data"]


def new_payment_request(op, client, subscription):
    """A PENDING payment request of 49 USD for a subscription's period of
    December 2098 (operator API): its id."""
    return op.ok("POST", "/admin/v1/payment-requests", {
        "client_id": client, "subscription_id": subscription, "type": "SUBSCRIPTION",
        "amount": "49.00", "currency": "USD", "due_date": "2099-01-01",
        "period_start": "2098-12-01", "period_end": "2099-01-01"})["id"]
