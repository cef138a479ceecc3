#!/sbin/openrc-run
# Managed by tend. Edits are overwritten on the next apply.

description='Web front end, it'\''s $HOME `x`'
command_background=true
pidfile="/run/${RC_SVCNAME}.pid"
command=/opt/web/bin/server

stop() {
	ebegin "Stopping ${RC_SVCNAME}"
	start-stop-daemon --stop --oknodo --retry TERM/5/KILL/5 --pidfile "${pidfile}" && rm -f "${pidfile}"
	eend $?
}
