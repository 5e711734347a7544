"""The other implementations of the lead endpoints that benchmarks/run
measures beside the service: peers named on the command line, the shared
peers it seeds and starts itself, and the ceiling server."""

import argparse
import os
import shutil
import subprocess

from vcs_tools.deployment import free_port, stop_process, wait_http
from vcs_tools.log import bench_log as log

# The shared peers this harness knows how to seed and start, and what each
# needs installed (the install commands of ../shared/peers/README.md).
SHARED_PEERS = ("node-fastify", "django-drf")
PEER_KEY, PEER_CAMPAIGN = "peer-key-1", "1"
# The peers' README reserves 28080-28099 for the peers and the ceiling.
PEER_PORTS = range(28080, 28100)
CEILING_ROWS = 100_000


class Impl:
    """One implementation of the lead endpoints measured side by side: the
    service, a peer (kind "peer"), or the ceiling server's GET /db (kind
    "ceiling"). database and pid (a function answering the root PID) are
    known only for what this run started; they give the cost per request."""

    def __init__(self, name, url, key=None, campaign=None, kind="peer", database=None, pid=None):
        self.name, self.url, self.key, self.campaign = name, url.rstrip("/"), key, campaign
        self.kind, self.database, self.pid = kind, database, pid

    def describe(self):
        return {"implementation": self.name, "kind": self.kind, "url": self.url,
                "campaign": self.campaign, "database": self.database}


def parse_peer(spec):
    """--peer NAME=URL,KEY,CAMPAIGN"""
    name, sep, rest = spec.partition("=")
    parts = rest.split(",")
    if not sep or not name or len(parts) != 3 or not all(parts):
        raise argparse.ArgumentTypeError(f"expected NAME=URL,KEY,CAMPAIGN, not {spec!r}")
    return Impl(name, *parts)


def run_script(path, args, logfile, timeout=600):
    """Runs a peer's seed.sh / start.sh / stop.sh, its output appended to logfile."""
    with open(logfile, "a") as out:
        out.write(f"$ {path} {' '.join(map(str, args))}\n")
        out.flush()
        done = subprocess.run([path] + [str(a) for a in args], stdout=out, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=timeout)
    if done.returncode:
        with open(logfile) as f:
            tail = "".join(f.readlines()[-15:])
        raise RuntimeError(f"{os.path.basename(path)} failed ({done.returncode}); "
                           f"last lines of {logfile}:\n{tail}")


class SharedPeers:
    """The shared peers (--shared-peers DIR), seeded and started by this run
    on its private PostgreSQL over TCP, each in its own database. The shared
    folder is read-only (its start.sh writes run/server.pid), so each peer
    runs from a copy in a scratch directory outside the project, with its
    packages installed there."""

    def __init__(self, source, scratch, deployment):
        self.source, self.scratch, self.deployment = source, scratch, deployment
        self.copies = []     # peers whose stop.sh runs at the end
        self.skipped = []

    def missing(self, name):
        """Why a peer cannot run here, naming the install command; None if it can."""
        src = os.path.join(self.source, name)
        if not os.path.isfile(os.path.join(src, "start.sh")):
            return f"{src}/start.sh does not exist"
        if name == "node-fastify" and not (shutil.which("node") and shutil.which("npm")):
            return "Node.js (20) and npm are not installed (scripts/bootstrap bench installs them)"
        if name == "django-drf":
            try:
                check = subprocess.run(["/usr/bin/python3", "-c",
                                        "import django, rest_framework, psycopg2, gunicorn"],
                                       capture_output=True, text=True)
                problem = check.returncode and check.stderr.strip().splitlines()[-1]
            except OSError as e:
                problem = str(e)
            if problem:
                return (f"/usr/bin/python3 cannot import its packages ({problem}): "
                        "scripts/bootstrap bench installs them")
        return None

    def start(self, leads):
        impls = []
        for name in SHARED_PEERS:
            reason = self.missing(name)
            if not reason:
                try:
                    impls.append(self.start_one(name, leads))
                    continue
                except (RuntimeError, OSError, ValueError, subprocess.SubprocessError) as e:
                    reason = f"did not start: {e}"
            log(f"skipping peer {name}: {reason}")
            self.skipped.append({"implementation": name, "reason": reason})
        return impls

    def start_one(self, name, leads):
        src = os.path.join(self.source, name)
        copy = os.path.join(self.scratch, name)
        shutil.copytree(src, copy, ignore=shutil.ignore_patterns(
            "node_modules", "run", "__pycache__", "*.pyc"))
        for d, _, _ in os.walk(copy):
            os.chmod(d, 0o755)
        logfile = os.path.join(self.scratch, f"{name}.log")
        if os.path.isfile(os.path.join(copy, "package-lock.json")):
            # Its locked packages, into the copy (npm's cache makes repeats
            # quick); nothing is installed by hand or written to the share.
            log(f"installing {name}'s packages (npm ci)")
            run_script(shutil.which("npm"), ["ci", "--prefix", copy, "--no-audit", "--no-fund"],
                       logfile)
        self.copies.append(copy)
        database = "peer_" + name.split("-")[0]      # peer_node, peer_django
        url = self.deployment.tcp_url(database)
        port = free_port(PEER_PORTS)
        log(f"seeding {name} with {leads} leads (database {database}), starting it on port {port}")
        run_script(os.path.join(copy, "seed.sh"), [url, leads], logfile)
        run_script(os.path.join(copy, "start.sh"), [url, port], logfile, timeout=60)
        with open(os.path.join(copy, "run", "server.pid")) as f:
            pid = int(f.read())
        return Impl(name, f"http://127.0.0.1:{port}", PEER_KEY, PEER_CAMPAIGN,
                    database=database, pid=lambda: pid)

    def stop(self):
        for copy in reversed(self.copies):
            try:
                run_script(os.path.join(copy, "stop.sh"), [],
                           os.path.join(self.scratch, f"{os.path.basename(copy)}.log"), timeout=120)
            except (RuntimeError, OSError, subprocess.SubprocessError) as e:
                log(f"stopping {os.path.basename(copy)}: {e}")
        self.copies = []


class Ceiling:
    """The ceiling server (one prepared primary-key read per GET /db),
    compiled from the shared source into the scratch directory and run on a
    table of CEILING_ROWS rows in database ceiling of the private cluster."""

    def __init__(self, source, scratch, deployment):
        self.source, self.scratch, self.deployment = source, scratch, deployment
        self.proc = None

    def start(self):
        binary = os.path.join(self.scratch, "ceiling")
        log(f"compiling {self.source}")
        if not shutil.which("g++"):
            raise RuntimeError("g++ is not installed")
        build = subprocess.run(["g++", "-O2", "-std=c++17", "-o", binary, self.source,
                                "-I/usr/include/postgresql", "-lpq", "-lpthread"],
                               capture_output=True, text=True)
        if build.returncode:
            raise RuntimeError("it needs g++, Boost 1.74 (libboost-dev), RapidJSON and libpq-dev; "
                               "g++ said:\n" + "\n".join(build.stderr.splitlines()[:10]))
        d = self.deployment
        d.psql("postgres", "CREATE DATABASE ceiling")
        d.psql("ceiling", "CREATE TABLE leads (id bigint PRIMARY KEY, campaign_id bigint, "
               "phone text, first_name text, last_name text, email text, custom_fields jsonb, "
               "created_at timestamptz)")
        d.psql("ceiling", "INSERT INTO leads SELECT g, 1, '+1555' || lpad(g::text, 7, '0'), "
               "'Jane', 'Doe', 'jane' || g || '@example.com', '{\"plan\":\"gold\"}', now() "
               f"FROM generate_series(1, {CEILING_ROWS}) g")
        d.psql("ceiling", "VACUUM ANALYZE leads")
        port = free_port(PEER_PORTS)
        conninfo = f"host=127.0.0.1 port={d.pg_port} user=postgres dbname=ceiling"
        self.log = open(os.path.join(self.scratch, "ceiling.log"), "w")
        # port, I/O threads, database threads, conninfo, id range (its README)
        self.proc = subprocess.Popen([binary, str(port), "2", "8", conninfo, "1", str(CEILING_ROWS)],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        wait_http(f"http://127.0.0.1:{port}/db", self.proc)
        log(f"ceiling listening on port {port}")
        return Impl("ceiling", f"http://127.0.0.1:{port}", kind="ceiling", database="ceiling",
                    pid=lambda: self.proc.pid)

    def stop(self):
        if self.proc:
            stop_process(self.proc)
            self.proc = None
