#!/usr/bin/env bash
# The Debian package, installed into a clean Debian 12 root (mmdebstrap:
# Debian's own packages resolve its dependencies) and started the way its
# systemd unit starts it: the unit checked by systemd-analyze, then its
# EnvironmentFile read, its ExecStartPre and ExecStart run as an
# unprivileged user of their own, readiness and stopping reported through
# NOTIFY_SOCKET, and the README's quick start run against it.
#
# usage: install_check.sh PACKAGE.deb DATABASE_URL
# (a database the installed service may migrate, reachable over TCP)
set -euo pipefail

deb=$(realpath "$1")
database_url=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib/local_env.sh
source "$repo/scripts/lib/local_env.sh"
# shellcheck source=../../scripts/lib/pg.sh
source "$repo/scripts/lib/pg.sh"

root_dir=$(mktemp -d /tmp/vcs-deb-root.XXXXXX)
service_pid=
listener_pid=
# shellcheck disable=SC2317 # called from a trap
cleanup() {
  if [ -n "$service_pid" ]; then kill -9 "$service_pid" 2>/dev/null || true; fi
  if [ -n "$listener_pid" ]; then kill "$listener_pid" 2>/dev/null || true; fi
  rm -rf "$root_dir"
}
trap cleanup EXIT

echo "package: $(basename "$deb") into a clean Debian 12 root"
if ! mmdebstrap --quiet --variant=apt --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
  --include="systemd,$deb" bookworm "$root_dir" >"$root_dir.log" 2>&1; then
  tail -n 30 "$root_dir.log" >&2
  exit 1
fi
rm -f "$root_dir.log"

# systemd-analyze names unknown keys without failing: any output fails too.
unit_name=voice-campaign-service.service
if ! out=$(systemd-analyze verify --root="$root_dir" "$unit_name" 2>&1) || [ -n "$out" ]; then
  echo "package: systemd-analyze verify $unit_name: ${out:-failed}" >&2
  exit 1
fi
echo "package: systemd-analyze verify $unit_name: clean"

unit="$root_dir/usr/lib/systemd/system/$unit_name"
setting() { sed -n "s/^$1=//p" "$unit"; }
[ "$(setting Type)" = notify ] && [ "$(setting DynamicUser)" = yes ] || {
  echo "package: the unit is not Type=notify with DynamicUser=yes" >&2
  exit 1
}
env_file=$(setting EnvironmentFile)
exec_start_pre=$(setting ExecStartPre)
exec_start=$(setting ExecStart)

# What an operator writes into the environment file.
public="127.0.0.1:$(free_port)"
operator="127.0.0.1:$(free_port)"
token=$(random_hex)
cat >>"$root_dir$env_file" <<EOF
VCS_DATABASE_URL=$database_url
VCS_OPERATOR_TOKEN=$token
VCS_SECRET_KEY=$(random_hex)
VCS_PUBLIC_LISTEN=$public
VCS_OPERATOR_LISTEN=$operator
EOF

# systemd's notification socket, inside the root, and what arrives on it.
notify_log="$root_dir/run/notify.log"
python3 - "$root_dir/run/notify" "$notify_log" <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
with open(sys.argv[2], "a", buffering=1) as log:
    while True:
        log.write(s.recv(4096).decode() + "\n")
PY
listener_pid=$!
for _ in $(seq 50); do [ -S "$root_dir/run/notify" ] && break; sleep 0.1; done

# As systemd runs each command (in place of the calling shell): the
# environment file read as root, the unit's LimitNOFILE, then a user that
# owns nothing, no new privileges, NOTIFY_SOCKET set.
exec_as_unit() {
  # shellcheck disable=SC2016 # expanded by the shell inside the root
  exec chroot "$root_dir" /bin/sh -c 'set -a; . "$0"; set +a; export NOTIFY_SOCKET=/run/notify
    ulimit -n "$1" 2>/dev/null || true; shift  # as far as this machine allows
    exec setpriv --reuid=61999 --regid=61999 --clear-groups --no-new-privs "$@"' \
    "$env_file" "$(setting LimitNOFILE)" "$@"
}
# shellcheck disable=SC2086 # the unit's command lines split into words
(exec_as_unit $exec_start_pre)
# shellcheck disable=SC2086
exec_as_unit $exec_start >"$root_dir/run/service.log" 2>&1 &
service_pid=$!
for _ in $(seq 300); do
  grep -q '^READY=1$' "$notify_log" 2>/dev/null && break
  kill -0 "$service_pid" 2>/dev/null || break
  sleep 0.1
done
if ! grep -q '^READY=1$' "$notify_log" 2>/dev/null; then
  echo "package: the installed service never reported READY=1" >&2
  tail -n 20 "$root_dir/run/service.log" >&2
  exit 1
fi
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$service_pid/status")
if [ "$uid" != 61999 ]; then
  echo "package: the service runs as uid $uid, not the unit's own user" >&2
  exit 1
fi
echo "package: the installed service reported READY=1 (pid $service_pid, uid $uid)"

VCS_PUBLIC_URL="http://$public" VCS_OPERATOR_URL="http://$operator" \
  VCS_OPERATOR_TOKEN=$token "$repo/scripts/quickstart" >"$root_dir/run/quickstart.log" || {
  tail -n 20 "$root_dir/run/quickstart.log" >&2
  exit 1
}
echo "package: the quick start passed against the installed service"

# The installed operator CLI as the README shows it: the environment file
# read by root, the node found from its operator listener.
# shellcheck disable=SC2016 # expanded by the shell inside the root
chroot "$root_dir" /bin/sh -c 'set -a; . "$0"; set +a
  exec voice-campaign-service admin tenants list' "$env_file" >"$root_dir/run/admin.log" 2>&1 || {
  cat "$root_dir/run/admin.log" >&2
  exit 1
}
if ! head -n 1 "$root_dir/run/admin.log" | grep -q '^tenant_id  *name  *plan' ||
  [ "$(wc -l <"$root_dir/run/admin.log")" -lt 2 ]; then
  echo "package: admin tenants list did not list the quick start's tenant:" >&2
  cat "$root_dir/run/admin.log" >&2
  exit 1
fi
echo "package: the installed admin command lists $(($(wc -l <"$root_dir/run/admin.log") - 1)) tenant(s)"

kill -TERM "$service_pid"
status=0
wait "$service_pid" || status=$?
service_pid=
if [ "$status" -ne 0 ] || ! grep -q '^STOPPING=1$' "$notify_log"; then
  echo "package: on SIGTERM the service exited $status (STOPPING=1 sent: $(grep -c STOPPING "$notify_log"))" >&2
  tail -n 20 "$root_dir/run/service.log" >&2
  exit 1
fi
echo "package: SIGTERM: STOPPING=1, then a clean exit"
