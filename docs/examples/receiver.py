#!/usr/bin/env python3
"""A webhook receiver for the Voice Campaign Service, standard library only.

It verifies each delivery's Standard Webhooks signature, drops repeats of an
event it has already handled (delivery is at least once), and prints each
event as one line of JSON on standard output.

    WEBHOOK_SECRET=whsec_... python3 receiver.py [--port 8090]

An invalid signature or a timestamp more than five minutes away is answered
400 and not printed; the service retries it along its schedule.
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from collections import OrderedDict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 300
REMEMBERED_EVENTS = 100_000


def verify(secret, headers, body):
    """True when one of the `v1,` signatures signs `id.timestamp.body`."""
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not (msg_id and timestamp and signatures):
        return False
    try:
        if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
            return False
    except ValueError:
        return False
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # During a secret rotation the header holds two signatures.
    for candidate in signatures.split():
        version, _, value = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return True
    return False


class Seen:
    """The ids of the last events handled, oldest forgotten first."""

    def __init__(self, size):
        self.ids = OrderedDict()
        self.size = size
        self.lock = threading.Lock()

    def first_time(self, event_id):
        with self.lock:
            if event_id in self.ids:
                return False
            self.ids[event_id] = None
            if len(self.ids) > self.size:
                self.ids.popitem(last=False)
            return True


def handler_for(secret, seen):
    printing = threading.Lock()  # one event per line, whatever thread sends it

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            if not verify(secret, headers, body):
                self.answer(400, b"invalid signature\n")
                return
            event = json.loads(body)
            if seen.first_time(event["id"]):
                line = json.dumps({"type": event["type"], "id": event["id"], "data": event["data"]})
                with printing:
                    sys.stdout.write(line + "\n")
                    sys.stdout.flush()
            # A repeat is answered 2xx too, so the service stops sending it.
            self.answer(200, b"ok\n")

        def answer(self, status, text):
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)

        def log_message(self, *args):
            pass  # standard output carries the events only

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8090)
    args = parser.parse_args()
    secret = os.environ.get("WEBHOOK_SECRET")
    if not secret or not secret.startswith("whsec_"):
        sys.exit("receiver: set WEBHOOK_SECRET to the whsec_ secret the service showed")
    server = ThreadingHTTPServer((args.host, args.port), handler_for(secret, Seen(REMEMBERED_EVENTS)))
    print(f"receiver: listening on http://{args.host}:{args.port}/", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
