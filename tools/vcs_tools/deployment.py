"""A private deployment, as the benchmarks and the drills start it: a
PostgreSQL cluster (scripts/lib/pg.sh) and the service; free ports, waiting
for a listener, and the processes' CPU and memory from /proc."""

import os
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request

from vcs_tools import ROOT
from vcs_tools.log import bench_log as log

PGBIN = "/usr/lib/postgresql/15/bin"
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port(ports=None):
    """A free port on 127.0.0.1 (one of ports, when given), else below the
    kernel's ephemeral range: a client
    that reconnects while nothing listens there (a server restarting) can
    otherwise connect to itself and hold the port the server needs."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    for _ in range(200):
        port = random.choice(ports) if ports else random.randint(min(20000, low - 1000), low - 1)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    raise RuntimeError("no free port " + (f"in {ports[0]}-{ports[-1]}" if ports
                                          else "below the ephemeral range"))


class Deployment:
    """A private PostgreSQL cluster and the Release service."""

    def __init__(self, binary=None, tcp=False):
        self.pgdir = tempfile.mkdtemp(prefix="vcs-bench-pg.")
        self.tcp = tcp
        os.chmod(self.pgdir, 0o755)
        self.pg_port = free_port()
        self.public_port = free_port()
        self.operator_port = free_port()
        self.token = os.urandom(16).hex()
        self.secret = os.urandom(32).hex()
        self.proc = None
        self.log = open(os.path.join(self.pgdir, "service.log"), "w")
        self.prebuilt = binary is not None
        self.binary = binary or os.path.join(ROOT, "build", "release", "src", "app",
                                             "voice-campaign-service")
        # <build>/src/app/voice-campaign-service -> <build>/benchmarks/static_server
        build_dir = os.path.dirname(os.path.dirname(os.path.dirname(self.binary)))
        self.static_binary = os.path.join(build_dir, "benchmarks", "static_server")
        self.peak_rss = 0.0
        self.sampling = False

    def pg(self, command):
        subprocess.run(["bash", "-c", f'source "{ROOT}/scripts/lib/pg.sh" && {command}'], check=True)

    # The service reaches its local database over the unix socket (about a
    # third less CPU per round trip than loopback TCP on these machines),
    # or over loopback TCP like everyone else when it is measured side by
    # side with peers and the ceiling.
    @property
    def database_url(self):
        return self.tcp_url("vcs") if self.tcp else self.url_of("vcs")

    def url_of(self, database):
        return f"postgresql://postgres@/{database}?host={self.pgdir}/socket&port={self.pg_port}"

    def tcp_url(self, database):
        return f"postgresql://postgres@127.0.0.1:{self.pg_port}/{database}"

    def start(self):
        if not self.prebuilt:
            log("building the service (Release)")
            build = os.path.join(ROOT, "build", "release")
            subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                            "-DVCS_BUILD_TESTS=OFF", "-DVCS_BUILD_BENCHMARKS=ON"],
                           check=True, stdout=subprocess.DEVNULL)
            subprocess.run(["cmake", "--build", build, "-j2", "--target",
                            "voice-campaign-service", "static_server"], check=True,
                           stdout=subprocess.DEVNULL)
        log(f"starting PostgreSQL on port {self.pg_port}")
        self.pg(f'pg_start "{self.pgdir}" {self.pg_port}')
        # pg_stat_statements counts the statements each scenario costs.
        self.psql("postgres", "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        self.pg(f'pg_stop "{self.pgdir}" && pg_start "{self.pgdir}" {self.pg_port}')
        self.start_service()
        self.psql("vcs", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        # statements(database) asks from here, outside the databases it counts.
        self.psql("postgres", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")

    def psql(self, database, sql):
        env = dict(os.environ, PGOPTIONS="-c client_min_messages=warning")
        return subprocess.run([f"{PGBIN}/psql", self.url_of(database), "-qAtc", sql], check=True,
                              capture_output=True, text=True, env=env).stdout.strip()

    def statements(self, database=None):
        """Statements PostgreSQL has run so far (all databases, all users), or
        in one database only (asked from database postgres, so the question
        is not counted)."""
        if database is None:
            return int(self.psql("vcs", "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements"))
        return int(self.psql("postgres", "SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s "
                             f"JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '{database}'"))

    def statement_time_ms(self, database):
        """Milliseconds PostgreSQL has spent executing the statements of one
        database so far (pg_stat_statements, asked from database postgres)."""
        return float(self.psql("postgres", "SELECT coalesce(sum(s.total_exec_time), 0) "
                               "FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid "
                               f"WHERE d.datname = '{database}'"))

    def cpu_seconds(self):
        """CPU seconds the service has used so far (None when not running)."""
        return tree_cpu_seconds(self.proc.pid) if self.proc else None

    def node_env(self, public_port, operator_port, extra_env=None):
        env = dict(os.environ)
        env.update({
            "VCS_DATABASE_URL": self.database_url,
            "VCS_PUBLIC_LISTEN": f"127.0.0.1:{public_port}",
            "VCS_OPERATOR_LISTEN": f"127.0.0.1:{operator_port}",
            "VCS_OPERATOR_TOKEN": self.token,
            "VCS_SECRET_KEY": self.secret,
            "VCS_LOG_LEVEL": "warn",
            # Load generators and HAProxy connect from one address.
            "VCS_MAX_CONNECTIONS_PER_CLIENT": "0",
            # One tenant drives each scenario at the node's full speed: its
            # plan's rate (ENTERPRISE: 10,000 requests a second) would cap
            # it, so the limiter stays on with a generous rate instead.
            "VCS_TENANT_RATE_LIMIT": "100000",
            # The scale bench's dial rounds and the drills' billing sweeps
            # run as of chosen instants (`now` on operator routes).
            "VCS_ALLOW_TEST_CLOCK": "true",
        })
        env.update(extra_env or {})
        return env

    def spawn_node(self):
        """Another node on the same database; returns (process, public port)."""
        public, operator = free_port(), free_port()
        proc = subprocess.Popen([self.binary, "serve"], env=self.node_env(public, operator),
                                stdout=self.log, stderr=subprocess.STDOUT)
        wait_http(f"http://127.0.0.1:{operator}/healthz", proc)
        return proc, public

    def start_service(self, extra_env=None):
        env = self.node_env(self.public_port, self.operator_port, extra_env)
        started = time.monotonic()
        self.proc = subprocess.Popen([self.binary, "serve"], env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        wait_http(f"http://127.0.0.1:{self.operator_port}/healthz", self.proc)
        self.startup_ms = (time.monotonic() - started) * 1000

    def stop_service(self):
        if self.proc:
            stop_process(self.proc)
        self.proc = None

    def rss_mb(self):
        if not self.proc:
            return None
        try:
            return memory_mb(self.proc.pid, "VmRSS")
        except OSError:
            return None

    def sample_rss(self):
        """Tracks the service's peak RSS until stop_sampling()."""
        self.peak_rss = self.rss_mb() or 0.0
        self.sampling = True

        def loop():
            while self.sampling:
                self.peak_rss = max(self.peak_rss, self.rss_mb() or 0.0)
                time.sleep(0.1)

        self.sampler = threading.Thread(target=loop, daemon=True)
        self.sampler.start()

    def stop_sampling(self):
        self.sampling = False
        self.sampler.join()
        return max(self.peak_rss, self.rss_mb() or 0.0)

    def stop(self):
        self.stop_service()
        try:
            self.pg(f'pg_remove "{self.pgdir}"')
        finally:
            shutil.rmtree(self.pgdir, ignore_errors=True)


def wait_http(url, proc, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer within {timeout} s")


def proc_stat(pid):
    """(parent pid, CPU ticks of the process and of the children it reaped)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is the state (field 3); utime, stime, cutime, cstime are 14-17.
    return int(fields[1]), sum(int(v) for v in fields[11:15])


def tree_cpu_seconds(root):
    """User + system CPU seconds of a process, its live descendants and the
    children they reaped (clock-tick resolution, 10 ms), from /proc/PID/stat."""
    parents, ticks = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parents[int(entry)], ticks[int(entry)] = proc_stat(entry)
            except (OSError, ValueError, IndexError):
                continue
    if root not in ticks:
        return None
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += ticks.get(pid, 0)
        todo.extend(p for p, parent in parents.items() if parent == pid)
    return total / CLK_TCK


def stop_process(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def memory_mb(pid, field):
    """A memory line of /proc/PID/status in MB: VmRSS (now) or VmHWM (the
    peak); None when it is not there."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return None


def reset_peak_rss(pid):
    """Sets a process's VmHWM back to its RSS now (clear_refs 5): VmHWM read
    later is its peak since, however brief."""
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")
