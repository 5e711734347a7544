"""Webhooks on loopback for the drills that follow them: a receiver, and
what it got against the outbox."""

import http.server
import threading
import time


class WebhookReceiver:
    """A loopback endpoint that answers every delivery 204 and records its
    webhook-id and when it came (monotonic seconds)."""

    def __init__(self):
        received, lock = [], threading.Lock()
        self.received, self.lock = received, lock

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with lock:
                    received.append((time.monotonic(), self.headers.get("webhook-id")))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def snapshot(self):
        with self.lock:
            return list(self.received)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def webhook_figures(received, stored, outages):
    """What a receiver got against the outbox on the new primary (event id ->
    status): every delivered event arrived, nothing arrived that the outbox
    does not hold, nothing is left pending, and an event arrived twice only
    when its first sending was around a loss (at least once, not more)."""
    first, times = {}, {}
    for at, event in received:
        first.setdefault(event, at)
        times[event] = times.get(event, 0) + 1
    twice = [e for e, n in times.items() if n > 1]
    windows = [(o["killed_at"] - 15, o["killed_at"] + (o["writes_back_s"] or 90) + 15)
               for o in outages]
    return {"events": len(stored),
            "delivered": sum(1 for st in stored.values() if st == "delivered"),
            "not_delivered": sum(1 for st in stored.values() if st != "delivered"),
            "delivered_never_received": sum(1 for e, st in stored.items()
                                            if st == "delivered" and e not in times),
            "received_not_stored": sum(1 for e in times if e not in stored),
            "received": len(received), "received_twice": len(twice),
            "twice_away_from_a_loss": sum(1 for e in twice
                                          if not any(a <= first[e] <= b for a, b in windows))}
