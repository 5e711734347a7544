#!/usr/bin/env bash
# The container image (packaging/container/Containerfile), built from this
# build's Debian package on a Debian 12 base made of Debian's own packages
# (mmdebstrap | podman import: no registry is reachable here), then run on
# the host's network against a test database: it migrates and serves as an
# unprivileged user, the README's quick start runs against it, and SIGTERM
# (podman stop) ends it with status 0. The compose file's PostgreSQL image
# comes from a registry, so compose itself is not run here.
#
# usage: container_check.sh PACKAGE.deb DATABASE_URL
set -euo pipefail

deb=$(realpath "$1")
database_url=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/lib/pg.sh
source "$repo/scripts/lib/pg.sh"

tag=vcs-check-$$
base=localhost/$tag-base:12
image=localhost/$tag:latest
context=$(mktemp -d /tmp/vcs-container.XXXXXX)
# This machine's podman needs runc (crun refuses a hybrid cgroup layout)
# and limits it may set (podman's defaults are above what it is allowed).
podman=(podman --runtime runc)
limits=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit nproc=4096:4096)

# shellcheck disable=SC2317 # called from a trap
cleanup() {
  "${podman[@]}" rm -f "$tag" >/dev/null 2>&1 || true
  "${podman[@]}" rmi -f "$image" "$base" >/dev/null 2>&1 || true
  rm -rf "$context"
}
trap cleanup EXIT
fail() {
  echo "container: $*" >&2
  "${podman[@]}" logs "$tag" 2>&1 | tail -n 20 >&2 || true
  exit 1
}

echo "container: a Debian 12 base from Debian's packages"
mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm - 2>"$context/base.log" |
  "${podman[@]}" import - "$base" >/dev/null 2>>"$context/base.log" || {
  tail -n 20 "$context/base.log" >&2
  exit 1
}
cp "$deb" "$context/"
echo "container: the image, from $(basename "$deb")"
"${podman[@]}" build --quiet "${limits[@]}" --build-arg "BASE=$base" \
  -f "$repo/packaging/container/Containerfile" -t "$image" "$context" >"$context/build.log" 2>&1 || {
  tail -n 30 "$context/build.log" >&2
  exit 1
}

public=127.0.0.1:$(free_port)
operator=127.0.0.1:$(free_port)
token=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
"${podman[@]}" run -d --name "$tag" --network host "${limits[@]}" \
  -e "VCS_DATABASE_URL=$database_url" -e "VCS_OPERATOR_TOKEN=$token" \
  -e "VCS_SECRET_KEY=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')" \
  -e "VCS_PUBLIC_LISTEN=$public" -e "VCS_OPERATOR_LISTEN=$operator" "$image" >/dev/null
deadline=$((SECONDS + 60))
until curl -fs -o /dev/null "http://$operator/readyz"; do
  [ "$("${podman[@]}" inspect -f '{{.State.Running}}' "$tag")" = true ] ||
    fail "the container exited during start-up"
  [ "$SECONDS" -lt "$deadline" ] || fail "not ready within 60 s"
  sleep 0.5
done
user=$("${podman[@]}" exec "$tag" id -u)
[ "$user" = 10001 ] || fail "the service runs as user $user, expected 10001"

VCS_PUBLIC_URL=http://$public VCS_OPERATOR_URL=http://$operator VCS_OPERATOR_TOKEN=$token \
  "$repo/scripts/quickstart" >"$context/quickstart.log" 2>&1 || {
  tail -n 20 "$context/quickstart.log" >&2
  fail "the quick start failed against the container"
}
"${podman[@]}" stop --time 40 "$tag" >/dev/null
code=$("${podman[@]}" inspect -f '{{.State.ExitCode}}' "$tag")
[ "$code" = 0 ] || fail "the service exited with status $code on SIGTERM"
echo "container: serves as user 10001, ran the quick start, stopped cleanly on SIGTERM"
