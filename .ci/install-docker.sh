#!/usr/bin/env bash
# Installs Debian's Docker engine and debootstrap when missing, then starts the engine when none
# answers. Idempotent: on a machine where the engine already runs it only checks and exits.
# The engine runs without a bridge or iptables rules: the test containers use --network none and
# image builds use --network host (see /work/shared/reference/containers.md).
set -euo pipefail

log=${DOCKERD_LOG:-/tmp/dockerd.log}
wait_seconds=${DOCKERD_WAIT_SECONDS:-60}

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi

installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

missing=()
for pkg in docker.io debootstrap; do
  installed "$pkg" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-docker: installing ${missing[*]}"
  # docker.io's postinst would start dockerd with its default bridge and iptables rules: keep it
  # from starting anything (unless the machine already has a policy), the engine is started below.
  policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee "$policy" >/dev/null
    "${sudo_cmd[@]}" chmod 0755 "$policy"
    trap '"${sudo_cmd[@]}" rm -f "$policy"' EXIT
  fi
  "${sudo_cmd[@]}" apt-get update
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
  if [ -n "$policy" ]; then "${sudo_cmd[@]}" rm -f "$policy"; trap - EXIT; fi
fi

if "${sudo_cmd[@]}" docker info >/dev/null 2>&1; then
  echo "install-docker: engine already running"
  exit 0
fi

echo "install-docker: starting dockerd (log: $log)"
# Its own session, so that the end of this script's process group does not take the engine along.
"${sudo_cmd[@]}" setsid /usr/sbin/dockerd --bridge=none --iptables=false --ip-masq=false \
  </dev/null >>"$log" 2>&1 &

for _ in $(seq 1 "$wait_seconds"); do
  if "${sudo_cmd[@]}" docker info >/dev/null 2>&1; then
    echo "install-docker: engine ready ($("${sudo_cmd[@]}" docker version --format '{{.Server.Version}} API {{.Server.APIVersion}}'))"
    exit 0
  fi
  sleep 1
done

echo "install-docker: dockerd did not answer within ${wait_seconds}s; last lines of $log:" >&2
tail -n 30 "$log" >&2 || true
exit 1
