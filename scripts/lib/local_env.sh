# Helpers shared by scripts/run and scripts/cluster: the Release build and a
# mode-600 file of generated secrets. Source it; set `envfile` first.

# build_release ROOT: configures and builds build/release; prints the binary.
build_release() {
  local root=$1 build="$1/build/release" generator=()
  # A build tree keeps the generator it was configured with.
  if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
  fi
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DVCS_BUILD_TESTS=OFF -DVCS_BUILD_BENCHMARKS=OFF >&2
  cmake --build "$build" -j2 --target voice-campaign-service >&2
  echo "$build/src/app/voice-campaign-service"
}

random_hex() {
  od -An -tx1 -N32 /dev/urandom | tr -d ' \n'
}

env_get() {
  sed -n "s/^$1=//p" "$envfile" | tail -n 1
}

# env_set NAME VALUE: replaces or adds NAME in the file, keeping mode 600.
env_set() {
  local tmp="$envfile.tmp"
  (
    umask 077
    {
      grep -v "^$1=" "$envfile" || true
      printf '%s=%s\n' "$1" "$2"
    } >"$tmp"
  )
  mv "$tmp" "$envfile"
}

# ensure_secrets: creates the file and the operator token and secret key in
# it once; exports both.
ensure_secrets() {
  if [ ! -f "$envfile" ]; then
    (umask 077 && : >"$envfile")
  fi
  chmod 600 "$envfile"
  local name
  for name in VCS_OPERATOR_TOKEN VCS_SECRET_KEY; do
    if [ -z "$(env_get "$name")" ]; then
      env_set "$name" "$(random_hex)"
    fi
  done
  VCS_OPERATOR_TOKEN=$(env_get VCS_OPERATOR_TOKEN)
  VCS_SECRET_KEY=$(env_get VCS_SECRET_KEY)
  export VCS_OPERATOR_TOKEN VCS_SECRET_KEY
}

# wait_healthy URL PID NAME [CURL_OPTION...]: waits up to 30 s for URL to
# answer 200 while PID lives.
wait_healthy() {
  local url=$1 pid=$2 name=$3 deadline=$((SECONDS + 30))
  shift 3
  until curl -fs -o /dev/null "$@" "$url"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$name exited during start-up" >&2
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "$name: $url did not answer within 30 s" >&2
      return 1
    fi
    sleep 0.3
  done
}

# stop_pid PID NAME: SIGTERM, up to 30 s for a graceful drain, then SIGKILL.
stop_pid() {
  local pid=$1 name=$2 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 150; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "$name did not stop within 30 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}
