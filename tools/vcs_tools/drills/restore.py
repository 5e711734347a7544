"""scripts/reliability restore: a pgBackRest backup taken under writes
restores to a point in time, and the service serves the restored database.

A private PostgreSQL 15 cluster archives its WAL to a pgBackRest repository
in its temporary directory (the configuration the drill writes there,
docs/ops/backup-restore.md). A node serves it; a writer adds single leads
through the public API and notes each acknowledged one (its phone number)
with the wall-clock times it was sent and acknowledged. A full backup is
taken while the writer runs; a few seconds on, the drill picks a target
time T, lets the writer run 2 s past it, has the WAL covering T archived
(pgbackrest check switches and waits) and stops the writer. The node and
PostgreSQL stop, the data directory is deleted, and pgbackrest restores it
to T (--type=time, --target-action=promote). Then, read from the leads
table: every write acknowledged before T is there, and none sent after T
and acknowledged after T+1 s is. The node starts again on the restored
database with the same service key: a public read of the campaign's leads
answers 200 and lists what the table holds, and a lead add repeated with
its Idempotency-Key replays the answer kept (sealed with the key) before
the backup.
"""

import datetime
import os
import shutil
import subprocess
import threading
import time

from vcs_tools.api import Api
from vcs_tools.deployment import Deployment
from vcs_tools.log import drill_log as log

STANZA = "vcs"
PREFIX = "+1415"  # valid North American numbers: exchanges 200-999


def stamp(t):
    """Wall-clock seconds as PostgreSQL and pgbackrest take a time with its
    zone: 2000-01-01 12:00:00.123456+00:00."""
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat(sep=" ")


def as_owner(cmd):
    """cmd run as the clusters' owner: postgres when we are root (pg.sh)."""
    return (["runuser", "-u", "postgres", "--"] + cmd) if os.getuid() == 0 else cmd


def backrest(ctx, *args, timeout=300):
    """Runs `pgbackrest --config=... --stanza=vcs ARGS` as the cluster's
    owner; answers its seconds."""
    cmd = as_owner([ctx["pgbackrest"], f"--config={ctx['conf']}", f"--stanza={STANZA}", *args])
    started = time.monotonic()
    done = subprocess.run(cmd, cwd="/", capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"pgbackrest {' '.join(args)} failed ({done.returncode}): "
                           f"{done.stderr.strip() or done.stdout.strip()}")
    return time.monotonic() - started


def chown_to_owner(path):
    if os.getuid() == 0:
        subprocess.run(["chown", "-R", "postgres:postgres", path], check=True)


def write_config(dep):
    """The repository, log and lock directories and pgbackrest.conf, under
    the cluster's own directory (removed with it)."""
    place = os.path.realpath(dep.pgdir)
    top = os.path.join(place, "pgbackrest")
    for sub in ("repo", "log", "lock"):
        os.makedirs(os.path.join(top, sub), exist_ok=True)
    conf = os.path.join(top, "pgbackrest.conf")
    with open(conf, "w") as f:
        f.write(f"""[global]
repo1-path={top}/repo
repo1-retention-full=2
log-path={top}/log
lock-path={top}/lock
log-level-console=warn
log-level-file=info
start-fast=y
archive-async=n
compress-type=lz4

[{STANZA}]
pg1-path={place}/data
pg1-port={dep.pg_port}
pg1-socket-path={place}/socket
pg1-user=postgres
""")
    chown_to_owner(top)
    return {"conf": conf, "data": os.path.join(place, "data"), "top": top,
            "pgbackrest": shutil.which("pgbackrest") or "/usr/bin/pgbackrest"}


def start_archiving_cluster(dep):
    """Step 1: the cluster (pg.sh), WAL archiving to the repository on
    (ALTER SYSTEM: kept in the data directory, hence in its backups), the
    stanza created and checked."""
    dep.pg(f'pg_start "{dep.pgdir}" {dep.pg_port}')
    ctx = write_config(dep)
    command = f"{ctx['pgbackrest']} --config={ctx['conf']} --stanza={STANZA} archive-push %p"
    dep.psql("postgres", "ALTER SYSTEM SET archive_mode = 'on'")
    dep.psql("postgres", f"ALTER SYSTEM SET archive_command = '{command}'")
    dep.pg(f'pg_stop "{dep.pgdir}" && pg_start "{dep.pgdir}" {dep.pg_port}')
    backrest(ctx, "stanza-create")
    backrest(ctx, "check")
    log(f"restore: archiving to {ctx['top']}/repo (stanza {STANZA})")
    return ctx


def provision(dep):
    """Step 2: the node, a tenant and a campaign; answers (api, campaign)."""
    dep.start_service()
    op = Api(f"http://127.0.0.1:{dep.operator_port}", dep.token)
    tenant = op.ok("POST", "/admin/v1/tenants", {"name": "restore", "plan": "PRO"})
    api = Api(f"http://127.0.0.1:{dep.public_port}", tenant["api_key"]["key"])
    campaign = api.ok("POST", "/api/v2/voice-campaigns", {"name": "restore"})["data"]["campaign_id"]
    return api, campaign


def keyed_add(api, campaign, key):
    """A lead add with an Idempotency-Key: (status, replayed, body bytes)."""
    status, headers, body = api.send("POST", f"/api/v2/voice-campaigns/{campaign}/leads",
                                     b'{"phone_number": "+14155550123"}',
                                     {"Idempotency-Key": key}, timeout=30)
    return status, status < 300 and headers.get("Idempotent-Replayed") == "true", body


class Writer:
    """Step 3: single lead adds, one after another; `acked` holds (phone,
    sent, acknowledged) in wall-clock seconds for every 201."""

    def __init__(self, api, campaign):
        self.api, self.campaign = api, campaign
        self.acked, self.failed, self.running = [], 0, True
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        n = 0
        while self.running:
            phone = f"{PREFIX}{2_000_000 + n:07d}"
            n += 1
            sent = time.time()
            try:
                status, _ = self.api.call("POST", f"/api/v2/voice-campaigns/{self.campaign}/leads",
                                          {"phone_number": phone}, timeout=30)
            except OSError:
                status = None
            if status == 201:
                self.acked.append((phone, sent, time.time()))
            else:
                self.failed += 1
                time.sleep(0.05)

    def stop(self):
        self.running = False
        self.thread.join(timeout=60)


def backup_and_pick_target(dep, ctx, writer, seconds):
    """Step 4: writes for `seconds`, a full backup while they go on, a
    third of `seconds` more (at least 3 s: WAL to replay past the backup),
    the target T (now), 2 s past T, then the WAL covering T archived
    (pgbackrest check switches to a new segment and waits for the old one
    in the repository) and the writer stopped. Answers figures and T."""
    time.sleep(seconds)
    at_backup = len(writer.acked)
    backup_s = backrest(ctx, "backup", "--type=full")
    log(f"restore: full backup in {backup_s:.1f} s ({at_backup} writes acknowledged before it)")
    time.sleep(max(3, seconds // 3))
    target = time.time()
    time.sleep(2)
    lsn = dep.psql("postgres", "SELECT pg_switch_wal()")
    check_s = backrest(ctx, "check")
    writer.stop()
    log(f"restore: T = {stamp(target)}; WAL switched at {lsn}, archived in {check_s:.1f} s")
    size = dep.psql("postgres", "SELECT pg_size_pretty(pg_database_size('vcs'))")
    return {"writes_s_before_backup": seconds, "writes_s_after_backup_before_target":
            max(3, seconds // 3), "acknowledged_before_backup": at_backup,
            "backup_s": round(backup_s, 1), "database_size": size,
            "acknowledged_writes": len(writer.acked), "failed_writes": writer.failed}, target


def destroy(dep, ctx):
    """Step 5: node and PostgreSQL stopped, the data directory deleted and
    made again empty (mode 700, the owner's)."""
    dep.stop_service()
    dep.pg(f'pg_stop "{dep.pgdir}"')
    shutil.rmtree(ctx["data"])
    os.mkdir(ctx["data"], 0o700)
    chown_to_owner(ctx["data"])


def restore_to(dep, ctx, target):
    """Step 6: pgbackrest restores the data directory to T, PostgreSQL
    starts, replays the archived WAL up to T and promotes. Answers the
    seconds of the restore and of the recovery."""
    started = time.monotonic()
    restore_s = backrest(ctx, "restore", "--type=time", f"--target={stamp(target)}",
                         "--target-action=promote")
    dep.pg(f'pg_start "{dep.pgdir}" {dep.pg_port}')
    deadline = time.monotonic() + 120
    while dep.psql("postgres", "SELECT pg_is_in_recovery()") != "f":
        if time.monotonic() > deadline:
            raise RuntimeError("PostgreSQL still in recovery 120 s after the restore")
        time.sleep(0.1)
    total_s = time.monotonic() - started
    log(f"restore: restored in {restore_s:.1f} s, promoted {total_s:.1f} s after the "
        "restore began")
    return round(restore_s, 1), round(total_s, 1)


def check_points(dep, acked, target):
    """Step 7a: the leads table against the acknowledgements."""
    found = set(dep.psql("vcs", f"SELECT phone_number FROM leads "
                                f"WHERE phone_number LIKE '{PREFIX}2%'").split())
    before = [p for p, _, at in acked if at < target]
    after = [p for p, sent, at in acked if at > target + 1 and sent > target]
    window = [p for p, _, at in acked if target <= at <= target + 1]
    return {"acknowledged_before_target": len(before),
            "found": sum(1 for p in before if p in found),
            "missing": sum(1 for p in before if p not in found),
            "acknowledged_after_target_plus_1s": len(after),
            "after_target_found": sum(1 for p in after if p in found),
            "acknowledged_within_1s_after_target": len(window),
            "within_1s_found": sum(1 for p in window if p in found)}


def check_service(dep, api, campaign, idem_key, first_answer):
    """Step 7b: the node on the restored database, the same service key: a
    public read of the campaign's leads, its count against the table, and
    the kept (sealed) answer of a keyed add replayed."""
    dep.start_service()
    status, doc = api.call("GET", f"/api/v2/voice-campaigns/{campaign}/leads/list?limit=1")
    listed = doc.get("page_info", {}).get("total_count") if status == 200 else None
    rows = int(dep.psql("vcs", "SELECT count(*) FROM leads"))
    again = keyed_add(api, campaign, idem_key)
    return {"public_read_status": status, "leads_listed": listed, "leads_in_table": rows,
            "secret_key": "the same VCS_SECRET_KEY before and after the restore",
            "sealed_answer_replayed": again[0] == 201 and again[1] and again[2] == first_answer}


def run(binary, seconds):
    """Runs the drill on a deployment of its own; answers (figures, passed)."""
    seconds = max(5, seconds)
    dep = Deployment(binary)
    started = time.monotonic()
    writer = None
    try:
        ctx = start_archiving_cluster(dep)
        api, campaign = provision(dep)
        idem_key = "restore-drill-keyed-add"
        first = keyed_add(api, campaign, idem_key)
        if first[0] != 201:
            raise RuntimeError(f"the keyed lead add answered {first[0]}: {first[2][:200]}")
        writer = Writer(api, campaign)
        figures, target = backup_and_pick_target(dep, ctx, writer, seconds)
        destroy(dep, ctx)
        figures["restore_s"], figures["restore_to_promoted_s"] = restore_to(dep, ctx, target)
        figures["target"] = stamp(target)
        figures.update(check_points(dep, writer.acked, target))
        figures.update(check_service(dep, api, campaign, idem_key, first[2]))
        figures["drill_s"] = round(time.monotonic() - started, 1)
    finally:
        if writer is not None:
            writer.stop()
        dep.stop()
    passed = (figures["acknowledged_before_target"] > 0 and figures["missing"] == 0
              and figures["acknowledged_after_target_plus_1s"] > 0
              and figures["after_target_found"] == 0 and figures["public_read_status"] == 200
              and figures["leads_listed"] == figures["leads_in_table"]
              and figures["sealed_answer_replayed"])
    return figures, passed


# A full pgBackRest backup under writes restored to a point in time, on
# a cluster and node of its own.
def restore(drills):
    figures, passed = run(drills.args.binary, drills.args.duration)
    lost = figures["missing"]
    drills.record("backup under writes restored to a point in time",
                  "pgbackrest backup --type=full, restore --type=time", figures,
                  "nothing" if lost == 0 else f"{lost} leads", drills.alive() and passed)
