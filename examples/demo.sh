#!/usr/bin/env bash
# Shows tend on the bundled example without touching this machine: validate the spec, render it
# for every init, then plan and apply it into a throw-away image root, and plan again.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tend() { node "$here/../packages/cli/dist/bin.js" "$@"; }
root="$(mktemp -d /tmp/tend-demo.XXXXXX)"
spec="$here/tend.config.ts"

# bold command lines on a terminal, plain text in a pipe or with NO_COLOR set
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ] && [ "${TERM:-}" != dumb ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s$ tend %s%s\n' "$bold" "$*" "$plain"; }

step validate -f examples/tend.config.ts
tend validate -f "$spec"
step render --init all -f examples/tend.config.ts
tend render --init all -f "$spec"
for init in runit systemd; do
  [ "$init" = systemd ] && ! command -v systemctl >/dev/null && { echo "(no systemctl here: skipping the systemd root)"; continue; }
  # An image root has what its packages installed: cron's daemon and /etc/cron.d (a stand-in
  # daemon here; tend only checks that one is there), runit's runsvdir.
  mkdir -p "$root/$init/etc/cron.d" "$root/$init/usr/sbin" "$root/$init/etc/runit/runsvdir/default" "$root/$init/etc/systemd/system"
  printf '#!/bin/sh\n' > "$root/$init/usr/sbin/cron" && chmod 755 "$root/$init/usr/sbin/cron"
  step plan --init "$init" --root "$root/$init" -f examples/tend.config.ts
  tend plan --init "$init" --root "$root/$init" -f "$spec"
  step apply --init "$init" --root "$root/$init" -f examples/tend.config.ts
  tend apply --init "$init" --root "$root/$init" -f "$spec"
  step plan --init "$init" --root "$root/$init" -f examples/tend.config.ts "  # again: nothing to do"
  tend plan --init "$init" --root "$root/$init" -f "$spec" --detailed-exitcode
done
printf '\nThe image roots are in %s (look around; nothing outside it changed).\n' "$root"
