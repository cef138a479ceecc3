#!/bin/sh
# The floor on runit: what any tool must do at the least, with runit's own commands.
#   apply N     write N service directories, link them into the scan folder, wait for runsvdir's
#               scan to supervise them all (polled with one `sv status` every 250 ms, as tend does)
#   change      rewrite one run script, one `sv term`, then `sv status` until a new process runs
#               (`sv restart` would wait too, but sleeps 420 ms between its checks; and run within
#               a second of the last start, runsv delays the restart while sv may already answer
#               "ok" for the old process)
#   query N     the state of N of tend's services in one `sv status`, and their run scripts read
#   teardown N  undo apply (not timed)
set -eu
op=$1 n=${2:-0}
scan=/etc/runit/runsvdir/default
dirs() { i=0; while [ "$i" -lt "$n" ]; do printf '/etc/sv/%s%s\n' "$1" "$i"; i=$((i + 1)); done; }
pid_of() { sv status "$1" | sed -n 's/^run: [^(]*(pid \([0-9]*\)).*/\1/p'; }
run() { # dir, argument
  printf '#!/bin/sh\nexec /bin/sleep %s\n' "$2" > "$1/run.new" && chmod 755 "$1/run.new" && mv "$1/run.new" "$1/run"
}
case $op in
  apply)
    i=0
    while [ "$i" -lt "$n" ]; do
      mkdir -p "/etc/sv/floor-svc$i" && run "/etc/sv/floor-svc$i" $((100000 + i))
      ln -s "/etc/sv/floor-svc$i" "$scan/floor-svc$i"
      i=$((i + 1))
    done
    until [ "$(dirs floor-svc | xargs sv status 2>/dev/null | grep -c '^run: ')" -eq "$n" ]; do sleep 0.25; done ;;
  change)
    old=$(pid_of /etc/sv/floor-svc0)
    run /etc/sv/floor-svc0 200000
    sv term /etc/sv/floor-svc0 > /dev/null
    until new=$(pid_of /etc/sv/floor-svc0) && [ -n "$new" ] && [ "$new" != "$old" ]; do sleep 0.01; done ;;
  query)
    dirs tend-svc | xargs sv status > /dev/null || true
    dirs tend-svc | sed 's|$|/run|' | xargs cat > /dev/null ;;
  teardown)
    dirs floor-svc | sed "s|^/etc/sv/|$scan/|" | xargs rm -f
    dirs floor-svc | xargs sv exit > /dev/null 2>&1 || true
    sleep 6
    dirs floor-svc | xargs rm -rf ;;
esac
