# shellcheck shell=bash
# A highly available PostgreSQL 15 on loopback, made of Debian 12's own
# engines: three etcd members (the consensus store), two Patroni members (a
# primary and a synchronous standby; Patroni elects the leader and fails
# over), and HAProxy sending one port to whichever member leads (it asks
# each member's Patroni REST API, GET /primary). Source after pg.sh (its
# relocation and port helpers are used); defines functions only:
#
#   ha_start DIR BASE        create (first time) and start everything under
#                            DIR; waits until the leader port answers,
#                            database vcs exists and the standby is
#                            synchronous. Ports from BASE: etcd
#                            member i BASE+i (client) and BASE+10+i (peer);
#                            Patroni member i PostgreSQL BASE+20+i and REST
#                            BASE+30+i; the leader port BASE+40.
#   ha_stop DIR              stop HAProxy, the Patroni members (each stops
#                            its PostgreSQL) and etcd; fine when stopped.
#   ha_url BASE              libpq URI of database vcs through the leader
#                            port, for the primary only.
#   ha_leader BASE           the leading member's name (pg0 or pg1), or
#                            nothing while there is none.
#   ha_kill_member DIR NAME  SIGKILL a member's Patroni and PostgreSQL at
#                            once, as when its machine is lost.
#   ha_start_member DIR NAME start a member again: it rejoins as a standby
#                            (pg_rewind when it led before).
#
# Settings that matter (see README, "High availability"): ttl 10 s (how long
# a dead leader keeps its lock), loop_wait 1 s, retry_timeout 4 s,
# synchronous_mode on (a commit is acknowledged once the standby has it;
# only a synchronous standby is promoted), maximum_lag_on_failover 1 MB,
# HAProxy checks every 500 ms and cuts the sessions of a member marked down.
# Authentication is trust on loopback, as pg.sh's: a dev box, not production.

ha_members=(pg0 pg1)

_ha_err() {
  echo "ha.sh: $*" >&2
}

# Becomes a command run as the PostgreSQL owner (Patroni runs initdb and
# postgres): call it in a subshell (setpriv execs, so no parent outlives a
# SIGKILL of the command, as runuser's would). It starts in /, since setpriv
# keeps the caller's directory, which the postgres user may not be able to
# enter (a checkout in a mode-700 directory), and Patroni's workers chdir
# back into it.
_ha_exec_as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then
    cd / || return 1
    HOME=/var/lib/postgresql exec setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"
  else
    exec "$@"
  fi
}

_ha_index() {
  case $1 in
    pg0) echo 0 ;;
    pg1) echo 1 ;;
    *) return 1 ;;
  esac
}

# Starts one etcd member unless it runs already.
_ha_start_etcd() {
  local dir=$1 base=$2 i=$3 cluster=$4
  pgrep -f -- "etcd --name etcd$i --data-dir $dir/etcd$i/data" >/dev/null && return 0
  mkdir -p "$dir/etcd$i"
  etcd --name "etcd$i" --data-dir "$dir/etcd$i/data" \
    --listen-client-urls "http://127.0.0.1:$((base + i))" \
    --advertise-client-urls "http://127.0.0.1:$((base + i))" \
    --listen-peer-urls "http://127.0.0.1:$((base + 10 + i))" \
    --initial-advertise-peer-urls "http://127.0.0.1:$((base + 10 + i))" \
    --initial-cluster "$cluster" --initial-cluster-token vcs-ha --initial-cluster-state new \
    >"$dir/etcd$i/etcd.log" 2>&1 &
}

# Writes member NAME's Patroni configuration; prints its path.
_ha_patroni_config() {
  local place=$1 base=$2 name=$3 i
  i=$(_ha_index "$name")
  cat >"$place/patroni.yml" <<EOF
# Written by scripts/lib/ha.sh at every start; edits are lost.
scope: vcs
namespace: /vcs/
name: $name
log:
  level: WARNING
restapi:
  listen: 127.0.0.1:$((base + 30 + i))
  connect_address: 127.0.0.1:$((base + 30 + i))
etcd3:
  hosts: 127.0.0.1:$base,127.0.0.1:$((base + 1)),127.0.0.1:$((base + 2))
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        wal_compression: lz4
        max_wal_senders: 10
        max_replication_slots: 10
        max_connections: 200
        shared_buffers: 128MB
        timezone: UTC
        log_timezone: UTC
  initdb:
    - encoding: UTF8
    - locale: C
  pg_hba:
    - local all all trust
    - host replication all 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$((base + 20 + i))
  connect_address: 127.0.0.1:$((base + 20 + i))
  data_dir: $place/data
  bin_dir: ${pg_bindir:?}
  pgpass: $place/pgpass
  # A standby clones the leader at once, not after a spread checkpoint.
  basebackup:
    - checkpoint: fast
  authentication:
    superuser:
      username: postgres
    replication:
      username: replicator
    rewind:
      username: rewinder
  parameters:
    unix_socket_directories: '$place'
EOF
  echo "$place/patroni.yml"
}

ha_start_member() {
  local dir name=$2 base place config
  dir=$(cd "$1" && pwd) || return 1
  base=$(cat "$dir/base") || return 1
  _ha_index "$name" >/dev/null || {
    _ha_err "no member $name"
    return 2
  }
  place=$(_pg_place "$dir/$name") || return 1
  pgrep -f -- "patroni $place/patroni.yml" >/dev/null && return 0
  _pg_check_traversable "$place" || return 1
  config=$(_ha_patroni_config "$place" "$base" "$name") || return 1
  if [ "$(id -u)" -eq 0 ]; then
    chown -R postgres:postgres "$place" || return 1
  fi
  (_ha_exec_as_postgres patroni "$config" >>"$place/patroni.log" 2>&1) &
}

# target_session_attrs: a connection that reaches a member which is no
# longer the primary (in the moment before HAProxy's checks notice) is
# refused by libpq itself rather than used.
ha_url() {
  echo "postgresql://postgres@127.0.0.1:$(($1 + 40))/vcs?target_session_attrs=read-write&connect_timeout=3"
}

ha_leader() {
  local base=$1 name
  for name in "${ha_members[@]}"; do
    if curl -fsS -o /dev/null --max-time 1 \
      "http://127.0.0.1:$((base + 30 + $(_ha_index "$name")))/primary" 2>/dev/null; then
      echo "$name"
      return 0
    fi
  done
}

ha_start() {
  if [ $# -ne 2 ]; then
    _ha_err "usage: ha_start DIR BASE"
    return 2
  fi
  local dir base=$2 i cluster=''
  mkdir -p "$1" || return 1
  dir=$(cd "$1" && pwd) || return 1
  echo "$base" >"$dir/base"
  for i in 0 1 2; do
    cluster+="${cluster:+,}etcd$i=http://127.0.0.1:$((base + 10 + i))"
  done
  for i in 0 1 2; do
    _ha_start_etcd "$dir" "$base" "$i" "$cluster" || return 1
  done
  for ((i = 0; i < 100; i++)); do
    ETCDCTL_API=3 etcdctl --endpoints="127.0.0.1:$base" endpoint health >/dev/null 2>&1 && break
    sleep 0.2
  done
  if ! ETCDCTL_API=3 etcdctl --endpoints="127.0.0.1:$base" endpoint health >/dev/null 2>&1; then
    _ha_err "etcd did not become healthy; see $dir/etcd0/etcd.log"
    tail -n 20 "$dir/etcd0/etcd.log" >&2
    return 1
  fi
  # The first member bootstraps the cluster; the second clones it.
  ha_start_member "$dir" pg0 || return 1
  for ((i = 0; i < 300; i++)); do
    [ -n "$(ha_leader "$base")" ] && break
    sleep 0.2
  done
  if [ -z "$(ha_leader "$base")" ]; then
    _ha_err "no Patroni leader after 60 s; see $(pg_location "$dir/pg0")/patroni.log"
    tail -n 20 "$(pg_location "$dir/pg0")/patroni.log" >&2
    return 1
  fi
  ha_start_member "$dir" pg1 || return 1

  cat >"$dir/haproxy.cfg" <<EOF
# Written by scripts/lib/ha.sh at every start; edits are lost.
global
  maxconn 2000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
# The leader's PostgreSQL, found through each member's Patroni REST API
# (200 on GET /primary only from the member holding the leader lock). The
# sessions of a member marked down are cut, so no client keeps writing to
# a demoted primary.
listen postgres_leader
  bind 127.0.0.1:$((base + 40))
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
  server pg0 127.0.0.1:$((base + 20)) check port $((base + 30))
  server pg1 127.0.0.1:$((base + 21)) check port $((base + 31))
EOF
  if ! pgrep -f -- "haproxy -db -f $dir/haproxy.cfg" >/dev/null; then
    haproxy -c -q -f "$dir/haproxy.cfg" || return 1
    haproxy -db -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1 &
    # Another process on the leader port would otherwise answer for it.
    sleep 0.3
    if ! pgrep -f -- "haproxy -db -f $dir/haproxy.cfg" >/dev/null; then
      _ha_err "HAProxy did not start (port $((base + 40)) in use?):"
      cat "$dir/haproxy.log" >&2
      return 1
    fi
  fi
  # HAProxy accepts before its first check has found the leader.
  local exists=''
  for ((i = 0; i < 100; i++)); do
    exists=$(_pg_run psql -X -q -h 127.0.0.1 -p $((base + 40)) -U postgres -d postgres -tAc \
      "SELECT 'found:' || count(*) FROM pg_database WHERE datname = 'vcs'" 2>/dev/null) && break
    sleep 0.2
  done
  case $exists in
    found:*) exists=${exists#found:} ;;
    *)
      _ha_err "the leader port $((base + 40)) does not answer; see $dir/haproxy.log"
      return 1
      ;;
  esac
  if [ "$exists" != 1 ]; then
    _pg_run createdb -h 127.0.0.1 -p $((base + 40)) -U postgres -E UTF8 -T template0 vcs || return 1
  fi
  # Ready once the standby is synchronous: from then on a commit is
  # acknowledged only when both members have it.
  local standby=''
  for ((i = 0; i < 300; i++)); do
    standby=$(_pg_run psql -X -q -h 127.0.0.1 -p $((base + 40)) -U postgres -d postgres -tAc \
      "SELECT sync_state FROM pg_stat_replication WHERE sync_state = 'sync'" 2>/dev/null)
    [ "$standby" = sync ] && return 0
    sleep 0.2
  done
  _ha_err "no synchronous standby after 60 s; see the members' patroni.log"
  return 1
}

ha_kill_member() {
  local name=$2 place postmaster
  place=$(pg_location "$1/$name")
  postmaster=$(head -n 1 "$place/data/postmaster.pid" 2>/dev/null || true)
  pkill -KILL -f -- "patroni $place/patroni.yml" 2>/dev/null || true
  if [ -n "$postmaster" ]; then
    kill -KILL "$postmaster" 2>/dev/null || true
  fi
}

# Stops the processes whose command line contains `pattern` (naming this
# set-up's files: processes are found by what they run, not by pid files a
# crash may leave stale): SIGTERM, then SIGKILL after `wait` seconds.
_ha_stop_matching() {
  local pattern=$1 wait=$2 i
  pkill -TERM -f -- "$pattern" 2>/dev/null || return 0
  for ((i = 0; i < wait * 10; i++)); do
    pgrep -f -- "$pattern" >/dev/null 2>&1 || return 0
    sleep 0.1
  done
  pkill -KILL -f -- "$pattern" 2>/dev/null || true
}

ha_stop() {
  local dir=$1 name i place
  [ -d "$dir" ] || return 0
  dir=$(cd "$dir" && pwd)
  _ha_stop_matching "haproxy -db -f $dir/haproxy.cfg" 5
  local stopping=()
  for name in "${ha_members[@]}"; do
    [ -e "$dir/$name" ] || continue
    place=$(pg_location "$dir/$name")
    # Patroni stops its PostgreSQL (fast shutdown) before it exits.
    _ha_stop_matching "patroni $place/patroni.yml" 60 &
    stopping+=($!)
  done
  # Only these: etcd and Patroni may be this shell's background jobs too.
  [ ${#stopping[@]} -eq 0 ] || wait "${stopping[@]}"
  for name in "${ha_members[@]}"; do
    [ -e "$dir/$name" ] && pg_stop "$dir/$name" >/dev/null 2>&1
  done
  for i in 0 1 2; do
    _ha_stop_matching "etcd --name etcd$i --data-dir $dir/etcd$i/data" 10
  done
  return 0
}
