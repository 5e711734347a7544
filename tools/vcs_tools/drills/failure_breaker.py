"""scripts/reliability failure_breaker: a live provider that starts failing
pauses the campaign before it spends its leads.

The node calls for real (voice-mode live) through a fake of a provider's API
on loopback, once for provider_a (Vapi's shapes) and once for provider_d
(Bland's). The fake takes the first HEALTHY calls and, for each, posts its
end-of-call report to the callback URL the service gave the call CALL_S
later, as that vendor does; from then on it answers every call 500, as a
provider that is down does. A tenant's campaign of LEADS leads, its failure breaker at the
defaults (the last 20 ended calls, 50%), dials through a configuration of
LINES lines. The drill measures how many calls the failing provider was sent
and how long the campaign took to pause, and checks its pause_reason and its
campaign.paused event. It passes when the campaign paused for
failure_breaker after at most the breaker's window plus the lines in flight,
and the leads it did not call are left callable.
"""

import http.server
import json
import threading
import time
import urllib.request

from vcs_tools.api import Api
from vcs_tools.log import drill_log as log

HEALTHY = 30
LEADS = 200
LINES = 5
CALL_S = 0.2
WINDOW = 20  # the breaker's default window
NODE_ENV = {"VCS_VOICE_MODE": "live", "VCS_DIAL_INTERVAL_MS": "100",
            "VCS_OUTBOUND_ALLOW": "127.0.0.0/8", "VCS_TENANT_RATE_LIMIT": "100000"}


class VendorA:
    """provider_a (Vapi): POST /call answered 201 {id}; the report goes to
    the call's server url with its secret in X-Vapi-Secret."""
    kind = "provider_a"
    base_url_env = "VCS_PROVIDER_A_BASE_URL"
    registration = {"voice_provider": "provider_a", "provider_a_private_key": "sk-drill",
                    "provider_a_public_key": "pk", "provider_a_organization_id": "org"}

    @staticmethod
    def accepted(provider_id):
        return 201, {"id": provider_id, "status": "queued"}

    @staticmethod
    def report(call, provider_id):
        message = {"message": {
            "type": "end-of-call-report", "endedReason": "customer-ended-call",
            "durationSeconds": 30, "cost": 0.05,
            "analysis": {"summary": "Drill call.", "successEvaluation": True},
            "call": {"id": provider_id, "metadata": call["metadata"]}}}
        return call["server"]["url"], message, {"X-Vapi-Secret": call["server"]["secret"]}


class VendorD:
    """provider_d (Bland): POST /v1/calls answered 200 {status, call_id};
    the call object goes to the call's webhook URL."""
    kind = "provider_d"
    base_url_env = "VCS_PROVIDER_D_BASE_URL"
    registration = {"voice_provider": "provider_d", "provider_d_api_key": "org-drill"}

    @staticmethod
    def accepted(provider_id):
        return 200, {"status": "success", "message": "Call successfully queued.",
                     "call_id": provider_id}

    @staticmethod
    def report(call, provider_id):
        message = {"call_id": provider_id, "metadata": call["metadata"], "completed": True,
                   "queue_status": "complete", "answered_by": "human", "call_length": 0.5,
                   "summary": "Drill call.", "price": 0.05}
        return call["webhook"], message, {}


class FakeProvider:
    """A vendor's call API on loopback: healthy for `healthy` calls, then
    failing."""

    def __init__(self, vendor, healthy):
        self.vendor = vendor
        self.healthy = healthy
        self.calls = 0
        self.failures = 0
        self.first_failure = None  # monotonic time
        self.lock = threading.Lock()
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake.lock:
                    fake.calls += 1
                    n = fake.calls
                    ok = n <= fake.healthy
                    if not ok:
                        fake.failures += 1
                        fake.first_failure = fake.first_failure or time.monotonic()
                if ok:
                    threading.Timer(CALL_S, fake.report, (body, f"fake-{n}")).start()
                    self.answer(*fake.vendor.accepted(f"fake-{n}"))
                else:
                    self.answer(500, {"message": "provider down"})

            def answer(self, status, doc):
                raw = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def report(self, call, provider_id):
        """The end report of an answered call, where the vendor sends it."""
        url, message, headers = self.vendor.report(call, provider_id)
        req = urllib.request.Request(
            url, data=json.dumps(message).encode(), method="POST",
            headers={"Content-Type": "application/json", **headers})
        for _ in range(20):  # answered 503 while the write may not commit: sent again
            try:
                with urllib.request.urlopen(req, timeout=5):
                    return
            except OSError:
                time.sleep(0.2)

    def stop(self):
        self.server.shutdown()


def run(dep, op, vendor):
    """Answers (figures, passed)."""
    fake = FakeProvider(vendor, HEALTHY)
    dep.stop_service()
    dep.start_service({**NODE_ENV, vendor.base_url_env: f"http://127.0.0.1:{fake.port}",
                       "VCS_CALLBACK_BASE_URL": f"http://127.0.0.1:{dep.public_port}"})
    try:
        tenant = op.ok("POST", "/admin/v1/tenants",
                       {"name": f"breaker-{vendor.kind}", "plan": "PRO"})
        api = Api(f"http://127.0.0.1:{dep.public_port}", tenant["api_key"]["key"])
        provider = api.ok("POST", "/api/v2/voice-pod", {
            **vendor.registration, "concurrency_limit": LINES})["data"]["voice_provider_id"]
        campaign = api.ok("POST", "/api/v2/voice-campaigns", {
            "name": "breaker", "tenant_voice_provider_id": provider,
            "assistant_id": "asst_drill", "phone_number_id": "pn_drill"})["data"]["campaign_id"]
        # Exchanges 200-999: valid North American numbers, so dialed.
        api.ok("POST", f"/api/v2/voice-campaigns/{campaign}/leads/bulk",
               [{"phone_number": f"+1415{2_000_000 + i:07d}"} for i in range(LEADS)])
        api.ok("PATCH", f"/api/v2/voice-campaigns/{campaign}/status", {"status": "ACTIVE"})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            read = api.ok("GET", f"/api/v2/voice-campaigns/{campaign}")["data"]
            if read["status"] == "PAUSED":
                break
            time.sleep(0.05)
        paused_after = (time.monotonic() - fake.first_failure) if fake.first_failure else None
        time.sleep(1)  # calls in flight at the pause end
        events = api.ok("GET", "/api/v2/events?limit=1000")["data"]
        announced = [e for e in events if e["type"] == "campaign.paused"
                     and e["campaign_id"] == campaign]
        called = fake.calls
    finally:
        fake.stop()
        dep.stop_service()
        dep.start_service()
    reason = read.get("pause_reason")
    figures = {"provider": vendor.kind, "healthy_calls": HEALTHY, "failing_calls_sent": fake.failures,
               "window": WINDOW, "lines": LINES, "leads_not_called": LEADS - called,
               "seconds_first_failure_to_pause":
                   round(paused_after, 2) if paused_after is not None else None,
               "status": read["status"], "pause_reason": reason,
               "campaign_paused_events": len(announced)}
    log(f"failure_breaker {vendor.kind}: {figures}")
    passed = (read["status"] == "PAUSED" and reason == "failure_breaker"
              and len(announced) == 1
              and announced[0]["payload"]["data"].get("pause_reason") == "failure_breaker"
              and 0 < fake.failures <= WINDOW + LINES and LEADS - called > 0)
    return figures, passed


# A provider that starts failing: the campaign pauses for its breaker, for
# two vendors' shapes.
def failure_breaker(drills):
    for vendor, shape in ((VendorA, "a fake provider_a (Vapi), 500s"),
                          (VendorD, "a fake provider_d (Bland), 500s")):
        figures, passed = run(drills.dep, drills.op, vendor)
        drills.record(f"provider starts failing (failure breaker, {vendor.kind})", shape,
                      figures, "nothing", drills.alive() and passed)
