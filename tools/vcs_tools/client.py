"""HTTP on loopback the drills' way, with http.client: a request on a fresh
connection (answered even when it fails), and a connection kept open."""

import http.client
import json
import time
import urllib.parse


def exchange(port, method, path, headers, body=None, source=None, timeout=5):
    """One request to 127.0.0.1:port on a fresh connection: (status, headers,
    body bytes). Raises OSError or http.client.HTTPException."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


def request(port, method, path, token=None, body=None, source=None, timeout=5,
            authorization=None):
    """One request on a fresh connection: (status or None, JSON body or None, seconds).
    `authorization` is sent as the Authorization header as it is, instead of
    "Bearer <token>". `source` binds the connection to another loopback address first. Only
    then: a port chosen at bind time cannot reuse one in TIME_WAIT, so a
    drill's writers binding every connection ran out of loopback ports
    (tens of thousands of connections a minute) and saw socket errors the
    service never caused."""
    started = time.monotonic()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if authorization:
        headers["Authorization"] = authorization
    if body is not None and not isinstance(body, (bytes, str)):
        body = json.dumps(body)
    try:
        status, _, raw = exchange(port, method, path, headers, body, source, timeout)
    except OSError:
        return None, None, time.monotonic() - started
    try:
        doc = json.loads(raw) if raw else None
    except ValueError:
        doc = None
    return status, doc, time.monotonic() - started


class KeepAlive:
    """One persistent connection to a listener (base URL), as a dialer's HTTP
    client pool keeps them, with a bearer token of its own or one per
    request."""

    def __init__(self, base, timeout, token=None):
        url = urllib.parse.urlsplit(base)
        self.host, self.port, self.timeout, self.token = url.hostname, url.port, timeout, token
        self.conn = None

    def timed(self, method, path, body=None, token=None):
        """(status, seconds) of one request, its answer read whole; a broken
        connection raises (OSError or http.client.HTTPException)."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        data = None if body is None else json.dumps(body).encode()
        started = time.perf_counter()
        self.conn.request(method, path, body=data,
                          headers={"Content-Type": "application/json",
                                   "Authorization": f"Bearer {token or self.token}"})
        response = self.conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - started

    def request(self, method, path, token, body):
        """(status or None, seconds); a broken connection is opened again once."""
        started = time.monotonic()
        for _ in range(2):
            try:
                return self.timed(method, path, body, token)[0], time.monotonic() - started
            except (OSError, http.client.HTTPException):
                self.close()
        return None, time.monotonic() - started

    def close(self):
        if self.conn is not None:
            self.conn.close()
        self.conn = None
