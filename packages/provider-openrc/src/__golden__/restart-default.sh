#!/sbin/openrc-run
# Managed by tend. Edits are overwritten on the next apply.

description=web
command_background=true
pidfile="/run/${RC_SVCNAME}.pid"
command=/opt/web/bin/server
command_args="--port 8080"

stop() {
	ebegin "Stopping ${RC_SVCNAME}"
	start-stop-daemon --stop --oknodo --retry TERM/5/KILL/5 --pidfile "${pidfile}" && rm -f "${pidfile}"
	eend $?
}
