"""What a run records about itself, benchmarks/run's and scripts/reliability's
alike (docs/performance.md and docs/reliability.md are made from both): when
it ran, the service (commit and build of a local binary), PostgreSQL, the
machine, the settings that change the figures and the command line, its
secrets masked."""

import os
import re
import subprocess
import sys
import time

from vcs_tools import ROOT


def timestamp():
    """Now, as the runs record their start and end."""
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def run_metadata(started, service, deployment, settings):
    """The run's record: service as local_service() or another deployment's
    address, PostgreSQL's version from the private deployment (if any)."""
    pg = None
    if deployment:
        try:
            pg = deployment.psql("postgres", "SHOW server_version").strip()
        except (OSError, subprocess.CalledProcessError):
            pass
    return {"started": started, "finished": timestamp(),
            "service": service, "postgresql": pg, "machine": machine(),
            "settings": settings, "argv": masked_argv(sys.argv[1:])}


def local_service(binary):
    """The service measured: the checkout's commit and its binary's build."""
    return {"commit": git_commit(), "binary": binary,
            "build_type": build_type_of(binary) if binary else None}


def git_commit():
    """The checkout's commit, marked when its tracked files have changes."""
    try:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD"]).returncode != 0
        return commit + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def build_type_of(binary):
    """CMAKE_BUILD_TYPE of the build tree a binary was built in, if found."""
    directory = os.path.dirname(os.path.abspath(binary))
    while directory != os.path.dirname(directory):
        cache = os.path.join(directory, "CMakeCache.txt")
        if os.path.exists(cache):
            with open(cache) as f:
                for line in f:
                    if line.startswith("CMAKE_BUILD_TYPE:"):
                        return line.split("=", 1)[1].strip() or None
            return None
        directory = os.path.dirname(directory)
    return None


def machine():
    """Cores, memory and CPU of this machine (the load generator's)."""
    out = {"cores": os.cpu_count(), "kernel": os.uname().release}
    try:
        with open("/proc/meminfo") as f:
            out["memory_mb"] = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1)) // 1024
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.+)", f.read())
            out["cpu"] = m.group(1).strip() if m else None
    except OSError:
        pass
    return out


SECRET_OPTIONS = ("--key", "--token")


def masked_argv(argv):
    """The command line without its secrets (reports are shared): the values
    of --key and --token, and the key inside each --peer NAME=URL,KEY,CAMPAIGN.
    The --shared-peers folder is named PATH/TO/<its name>: it lies outside the
    project, wherever a reader keeps it, and committed reports must not point
    there."""
    out, hide_next, peer_next, peers_next = [], False, False, False
    for arg in argv:
        option, eq, value = arg.partition("=")
        if hide_next:
            out.append("***")
        elif peer_next:
            out.append(mask_peer(arg))
        elif peers_next:
            out.append(peers_folder(arg))
        elif eq and option in SECRET_OPTIONS:
            out.append(f"{option}=***")
        elif eq and option == "--peer":
            out.append(f"--peer={mask_peer(value)}")
        elif eq and option == "--shared-peers":
            out.append(f"--shared-peers={peers_folder(value)}")
        else:
            out.append(arg)
        hide_next, peer_next = arg in SECRET_OPTIONS, arg == "--peer"
        peers_next = arg == "--shared-peers"
    return out


def peers_folder(path):
    return "PATH/TO/" + os.path.basename(os.path.normpath(path))


def mask_peer(spec):
    name, sep, rest = spec.partition("=")
    parts = rest.split(",")
    if sep and len(parts) == 3:
        parts[1] = "***"
    return name + sep + ",".join(parts)
