# shellcheck shell=bash
# Private PostgreSQL 15 clusters for development and tests. Source this file;
# it defines functions only:
#
#   pg_start DIR PORT  create (first time) and start a cluster: data in
#                      DIR/data, unix socket in DIR/socket, TCP on 127.0.0.1
#                      PORT only, log in DIR/postgres.log, database vcs.
#   pg_stop DIR        fast shutdown; fine when it is not running.
#   pg_remove DIR      stop and delete the cluster (a throwaway one).
#   pg_location DIR    the directory the cluster of DIR really lives in.
#   pg_url DIR PORT    libpq URI of database vcs over TCP on loopback.
#   free_port          a currently free TCP port on 127.0.0.1.
#
# initdb refuses to run as root, so when we are root every PostgreSQL tool
# runs as the postgres user and DIR is chowned to it. The postgres user must
# then be able to enter every directory above DIR; when it cannot (a checkout
# under /root, a mode-700 home or mktemp -d directory), the cluster lives in
# $pg_relocation_root/<hash of DIR's path> instead, owned by postgres, and
# DIR becomes a symbolic link to it, so later starts find the same data.
# Authentication is trust (loopback and the private socket only): a dev box,
# not production.
#
# The functions report failures by their return status and work with or
# without errexit; sourcing this file does not change shell options.

pg_bindir=${PG_BINDIR:-/usr/lib/postgresql/15/bin}
pg_relocation_root=${VCS_PG_RELOCATION_ROOT:-/var/lib/voice-campaign-service/pg}

_pg_err() {
  echo "pg.sh: $*" >&2
}

# Runs a PostgreSQL tool as the cluster owner, from / when that is another
# user, who may not be able to enter the caller's directory (every path
# given to the tools is absolute).
_pg_run() {
  local tool=$1
  shift
  if [ "$(id -u)" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$pg_bindir/$tool" "$@")
  else
    "$pg_bindir/$tool" "$@"
  fi
}

# Absolute path of DIR (which must exist).
_pg_abs() {
  (cd "$1" && pwd -P)
}

# Prints the outermost directory on the way to DIR (DIR included) that the
# postgres user cannot enter; nothing when it can enter them all, or when we
# are not root (the tools then run as ourselves). A directory that does not
# exist yet ends the walk: mkdir -p makes it, and what follows, enterable.
_pg_blocker() {
  local path=$1 p='' part parts
  [ "$(id -u)" -eq 0 ] || return 0
  IFS=/ read -ra parts <<<"${path#/}"
  for part in "${parts[@]}"; do
    [ -n "$part" ] || continue
    p="$p/$part"
    [ -d "$p" ] || return 0
    if ! runuser -u postgres -- test -x "$p"; then
      echo "$p"
      return 0
    fi
  done
}

# Where the cluster of DIR lives, made if missing: DIR itself when the
# postgres user can reach it, otherwise a directory under
# $pg_relocation_root that DIR links to. Prints its absolute path.
_pg_place() {
  local requested=$1 abs blocker target entry
  if [ -L "$requested" ]; then
    target=$(readlink -f "$requested") || return 1
    (umask 022 && mkdir -p "$target") || return 1
    echo "$target"
    return 0
  fi
  # Directories made here must be enterable by the postgres user.
  (umask 022 && mkdir -p "$requested") || return 1
  abs=$(_pg_abs "$requested") || return 1
  blocker=$(_pg_blocker "$(dirname "$abs")")
  if [ -z "$blocker" ]; then
    echo "$abs"
    return 0
  fi
  target="$pg_relocation_root/$(printf '%s' "$abs" | sha256sum | cut -c1-16)"
  (umask 022 && mkdir -p "$target") || return 1
  # What an earlier, refused start left behind (a log, an empty socket
  # directory) moves along.
  for entry in "$abs"/* "$abs"/.[!.]*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    mv "$entry" "$target/" || return 1
  done
  rmdir "$abs" && ln -s "$target" "$abs" || return 1
  printf '%s\n' "$abs" >"$target/linked-from" || return 1
  _pg_err "the postgres user cannot enter $blocker, so the cluster for $abs" \
    "lives in $target ($abs links to it)"
  echo "$target"
}

# Fails with a clear message naming the directory that stops the postgres
# user from reaching DIR.
_pg_check_traversable() {
  local dir=$1 blocker
  blocker=$(_pg_blocker "$(dirname "$dir")")
  [ -z "$blocker" ] && return 0
  _pg_err "the postgres user cannot enter $blocker (mode $(stat -c %A "$blocker")," \
    "owner $(stat -c %U "$blocker")), so it cannot use a cluster under $dir." \
    "Run: chmod o+x $blocker, or set VCS_PG_RELOCATION_ROOT to a directory it can reach"
  return 1
}

# True when the cluster in DIR/data is running.
_pg_running() {
  [ -f "$1/data/PG_VERSION" ] && _pg_run pg_ctl status -D "$1/data" >/dev/null 2>&1
}

pg_start() {
  if [ $# -ne 2 ]; then
    _pg_err "usage: pg_start DIR PORT"
    return 2
  fi
  local dir port=$2 locale
  case $port in
    '' | *[!0-9]*)
      _pg_err "pg_start: bad port '$port'"
      return 2
      ;;
  esac
  dir=$(_pg_place "$1") || return 1
  _pg_check_traversable "$dir" || return 1
  # The unix socket path must fit in sun_path (107 bytes).
  if [ $((${#dir} + ${#port} + 18)) -gt 107 ]; then
    _pg_err "the socket path under $dir is too long for a unix socket; use a shorter directory"
    return 1
  fi
  mkdir -p "$dir/socket" || return 1
  if [ "$(id -u)" -eq 0 ]; then
    chown -R postgres:postgres "$dir" || return 1
  fi
  chmod 700 "$dir/socket" || return 1

  if [ ! -f "$dir/data/PG_VERSION" ]; then
    locale=C
    if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then locale=C.UTF-8; fi
    if ! _pg_run initdb -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale="$locale" \
      --no-instructions >"$dir/initdb.log" 2>&1; then
      _pg_err "initdb failed; see $dir/initdb.log"
      tail -n 20 "$dir/initdb.log" >&2
      return 1
    fi
    # Settings that change between starts live in vcs.conf, rewritten below.
    printf "\n# Added by scripts/lib/pg.sh\ninclude_if_exists = 'vcs.conf'\n" >>"$dir/data/postgresql.conf" ||
      return 1
  fi

  # Dev-box tuning. fsync, full_page_writes and synchronous_commit keep their
  # durable defaults on purpose. Full-page images are compressed with lz4:
  # pglz (wal_compression = on) took half of a bulk insert's CPU when its
  # rows went into pages written before a checkpoint.
  cat >"$dir/data/vcs.conf" <<EOF || return 1
# Written by scripts/lib/pg.sh at every start; edits are lost.
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/socket'
unix_socket_permissions = 0770
max_connections = 200
shared_buffers = 256MB
effective_cache_size = 1GB
work_mem = 16MB
maintenance_work_mem = 256MB
max_wal_size = 2GB
min_wal_size = 256MB
checkpoint_timeout = 15min
checkpoint_completion_target = 0.9
wal_compression = lz4
random_page_cost = 1.1
effective_io_concurrency = 200
fsync = on
synchronous_commit = on
full_page_writes = on
timezone = 'UTC'
log_timezone = 'UTC'
log_line_prefix = '%m [%p] %q%u@%d '
log_min_duration_statement = -1
log_lock_waits = on
log_checkpoints = off
EOF
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "$dir/data/vcs.conf" || return 1
  fi
  touch "$dir/postgres.log" || return 1
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "$dir/postgres.log" || return 1
  fi

  local out
  if _pg_running "$dir"; then
    # Already up (e.g. a previous run was killed): reload the settings file.
    # A changed port needs a restart, so say so rather than hide it.
    _pg_run pg_ctl reload -D "$dir/data" -s >/dev/null 2>&1 || true
    if ! _pg_run pg_isready -q -h 127.0.0.1 -p "$port" -d postgres -U postgres; then
      _pg_err "a cluster is already running in $dir but not on port $port; run pg_stop $dir first"
      return 1
    fi
  elif ! out=$(_pg_run pg_ctl start -D "$dir/data" -l "$dir/postgres.log" -w -t 60 -s 2>&1); then
    _pg_err "PostgreSQL did not start (port $port busy?): $out"
    _pg_err "last lines of $dir/postgres.log:"
    tail -n 20 "$dir/postgres.log" >&2
    return 1
  fi

  # pg_ctl -w waited for the socket; also wait for TCP on the loopback port.
  local i
  for ((i = 0; i < 100; i++)); do
    if _pg_run pg_isready -q -h 127.0.0.1 -p "$port" -d postgres -U postgres; then break; fi
    sleep 0.1
  done
  if ! _pg_run pg_isready -q -h 127.0.0.1 -p "$port" -d postgres -U postgres; then
    _pg_err "PostgreSQL in $dir does not accept connections on 127.0.0.1:$port; see $dir/postgres.log"
    return 1
  fi

  local exists
  exists=$(_pg_run psql -X -q -h "$dir/socket" -p "$port" -U postgres -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = 'vcs'") || return 1
  if [ "$exists" != 1 ]; then
    _pg_run createdb -h "$dir/socket" -p "$port" -U postgres -O postgres -E UTF8 -T template0 vcs || return 1
  fi
}

pg_stop() {
  if [ $# -ne 1 ]; then
    _pg_err "usage: pg_stop DIR"
    return 2
  fi
  local dir=$1
  [ -d "$dir" ] || return 0
  dir=$(_pg_abs "$dir") || return 1
  _pg_running "$dir" || return 0
  if ! _pg_run pg_ctl stop -D "$dir/data" -m fast -w -t 60 -s >/dev/null 2>&1; then
    # It may have stopped on its own meanwhile (e.g. Ctrl-C reached it).
    if _pg_running "$dir"; then
      _pg_err "could not stop the PostgreSQL cluster in $dir"
      return 1
    fi
  fi
}

pg_remove() {
  if [ $# -ne 1 ]; then
    _pg_err "usage: pg_remove DIR"
    return 2
  fi
  [ -e "$1" ] || [ -L "$1" ] || return 0
  pg_stop "$1" || return 1
  if [ -L "$1" ]; then
    rm -rf "$(readlink -f "$1")" || return 1
  fi
  rm -rf "$1"
}

pg_location() {
  if [ $# -ne 1 ]; then
    _pg_err "usage: pg_location DIR"
    return 2
  fi
  readlink -f "$1"
}

pg_url() {
  if [ $# -ne 2 ]; then
    _pg_err "usage: pg_url DIR PORT"
    return 2
  fi
  echo "postgresql://postgres@127.0.0.1:$2/vcs"
}

free_port() {
  # Below the kernel's ephemeral range: a client that reconnects while nothing
  # listens on the port (a server restarting) can otherwise connect to itself
  # and hold the port the server needs.
  local low=32768 port i
  if [ -r /proc/sys/net/ipv4/ip_local_port_range ]; then
    read -r low _ </proc/sys/net/ipv4/ip_local_port_range
  fi
  [ "$low" -gt 21024 ] || low=21024
  for ((i = 0; i < 200; i++)); do
    port=$((20000 + RANDOM % (low - 20000)))
    if command -v python3 >/dev/null 2>&1; then
      python3 -c 'import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))' "$port" 2>/dev/null || continue
    elif (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      continue
    fi
    echo "$port"
    return 0
  done
  _pg_err "no free port found"
  return 1
}
