#!/bin/sh
# The floor on systemd: what any tool must do at the least, with systemd's own commands.
#   apply N     write N units, one daemon-reload, one `enable --now` of all of them
#   change      rewrite one unit, one daemon-reload, one restart
#   query N     the state of N of tend's units in one `systemctl show`, and their files read
#   teardown N  undo apply (not timed)
set -eu
op=$1 n=${2:-0}
dir=/etc/systemd/system
unit() { # name, argument
  printf '[Unit]\nDescription=floor %s\n\n[Service]\nExecStart=/bin/sleep %s\nRestart=always\n\n[Install]\nWantedBy=multi-user.target\n' "$1" "$2" > "$dir/$1.service"
}
names() { i=0; while [ "$i" -lt "$n" ]; do printf '%s%s.service\n' "$1" "$i"; i=$((i + 1)); done; }
case $op in
  apply)
    i=0; while [ "$i" -lt "$n" ]; do unit "floor-svc$i" $((100000 + i)); i=$((i + 1)); done
    systemctl daemon-reload
    names floor-svc | xargs systemctl enable --now --quiet ;;
  change)
    unit floor-svc0 200000
    systemctl daemon-reload
    systemctl restart floor-svc0.service ;;
  query)
    names tend-svc | xargs systemctl show -p Id,LoadState,ActiveState,SubState,UnitFileState,NeedDaemonReload -- > /dev/null
    names tend-svc | sed "s|^|$dir/|" | xargs cat > /dev/null ;;
  teardown)
    names floor-svc | xargs systemctl disable --now --quiet
    names floor-svc | sed "s|^|$dir/|" | xargs rm -f
    systemctl daemon-reload ;;
esac
