#!/sbin/openrc-run
# Managed by tend. Edits are overwritten on the next apply.

description=web
command_background=true
pidfile="/run/${RC_SVCNAME}.pid"
command=/opt/web/bin/server
command_args="--port 8080"

# OpenRC signals only the program: stop_post ends the rest of its process group.
start_post() {
	service_set_value tend_group "$(tend_group_of "$(cat "${pidfile}")")"
}

stop_pre() {
	tend_group=$(service_get_value tend_group)
	[ -n "$tend_group" ] || tend_group=$(tend_group_of "$(cat "${pidfile}" 2>/dev/null)")
}

stop() {
	ebegin "Stopping ${RC_SVCNAME}"
	start-stop-daemon --stop --oknodo --retry TERM/5/KILL/5 --pidfile "${pidfile}" && rm -f "${pidfile}"
	eend $?
}

stop_post() {
	tend_end_group "$tend_group"
}

tend_end_group() {
	[ -n "$1" ] && [ "$1" -gt 1 ] 2>/dev/null || return 0
	kill -TERM "-$1" 2>/dev/null || return 0
	local waited=0
	while kill -0 "-$1" 2>/dev/null; do
		[ "$waited" -ge 250 ] && { kill -KILL "-$1" 2>/dev/null; return 0; }
		sleep 0.02
		waited=$((waited + 1))
	done
}

tend_group_of() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	set -- ${stat##*) }
	echo "$3"
}
