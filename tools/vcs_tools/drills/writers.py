"""Steady single lead adds for the drills that count what was acknowledged
against what is listed afterwards."""

import threading
import time

from vcs_tools.client import request


class LeadWriters:
    """`writers` threads adding single leads (PREFIX, the thread's number in
    two digits, a sequence in five) to a campaign one after another, and
    `readers` threads listing its first page: every answer counted by
    status, every acknowledged phone number kept, and each add's (monotonic
    time answered, status, seconds, whether its body was JSON)."""

    def __init__(self, port, key, campaign, prefix, writers, timeout, pause=0.0, readers=0):
        self.port, self.key, self.campaign, self.prefix = port, key, campaign, prefix
        self.timeout, self.pause = timeout, pause
        self.statuses, self.acked, self.samples = {}, [], []
        self.lock = threading.Lock()
        self.running = True
        self.threads = [threading.Thread(target=self.write, args=(n,)) for n in range(writers)]
        self.threads += [threading.Thread(target=self.read) for _ in range(readers)]

    def start(self):
        for t in self.threads:
            t.start()
        return self

    def count(self, status):
        self.statuses[str(status)] = self.statuses.get(str(status), 0) + 1

    def write(self, n):
        i = 0
        while self.running:
            i += 1
            phone = f"{self.prefix}{n:02d}{i:05d}"
            status, doc, secs = request(self.port, "POST",
                                        f"/api/v2/voice-campaigns/{self.campaign}/leads",
                                        self.key, {"phone_number": phone}, timeout=self.timeout)
            with self.lock:
                self.samples.append((time.monotonic(), status, secs, doc is not None))
                self.count(status)
                if status == 201:
                    self.acked.append(phone)
            if self.pause:
                time.sleep(self.pause)

    def read(self):
        while self.running:
            status, _, _ = request(self.port, "GET",
                                   f"/api/v2/voice-campaigns/{self.campaign}/leads/list?limit=20",
                                   self.key, timeout=self.timeout)
            with self.lock:
                self.count(status)

    def stop(self):
        self.running = False
        for t in self.threads:
            t.join()
