"""sqlmap against the service's query parameters and JSON bodies."""

import json
import re
import shutil
import subprocess
import tempfile
import time

from vcs_tools.log import drill_log as log


# sqlmap against query parameters and JSON bodies.
def sqlmap(drills):
    c = drills.campaign
    lead = drills.api.ok("GET", f"/api/v2/voice-campaigns/{c}/leads/list?limit=1")["leads"][0]
    base = f"http://127.0.0.1:{drills.dep.public_port}"
    targets = [
        ("GET leads/list?limit&offset", [
            "-u", f"{base}/api/v2/voice-campaigns/{c}/leads/list?limit=10&offset=0"]),
        ("GET payment-requests?status&client_id&limit", [
            "-u", f"{base}/api/v2/external-billing/payment-requests?status=PENDING"
                  f"&client_id=1&limit=10&offset=0"]),
        ("GET clients?search-like params", [
            "-u", f"{base}/api/v2/clients?limit=10&offset=0"]),
        ("POST voice-campaigns JSON body", [
            "-u", f"{base}/api/v2/voice-campaigns",
            "--data", json.dumps({"name": "x", "type": "OUTBOUND", "timezone": "UTC"})]),
        ("PATCH v1 lead/update JSON body", [
            "-u", f"{base}/v1/api/voice-campaigns/{c}/lead/update", "--method", "PATCH",
            "--data", json.dumps({"phone_number": lead["phone_number"],
                                  "first_name": "a", "custom_fields": {"k": "v"}})]),
    ]
    found, checked = [], []
    out_dir = tempfile.mkdtemp(prefix="vcs-sqlmap.")
    started = time.monotonic()
    served_before = drills.requests_served()
    for name, target in targets:
        cmd = ["sqlmap", "--batch", "--level=2", "--risk=1", "--flush-session",
               "--disable-coloring", "--output-dir", out_dir, "--time-sec=2",
               # sqlmap splits --headers at a literal backslash-n.
               "--headers", f"Authorization: Bearer {drills.key}\\nContent-Type: application/json"
               ] + target
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=1800).stdout
        if re.search(r"identified the following injection point|is vulnerable", out):
            found.append(name)
        checked.append(name)
        log(f"sqlmap {name}: {'INJECTABLE' if name in found else 'nothing found'}")
    shutil.rmtree(out_dir, ignore_errors=True)
    figures = {"targets": len(checked), "requests_sent": drills.requests_served() - served_before,
               "injectable": found, "minutes": round((time.monotonic() - started) / 60, 1)}
    drills.record("SQL injection", "sqlmap --level=2 --risk=1", figures, "nothing",
                  drills.alive() and not found)
