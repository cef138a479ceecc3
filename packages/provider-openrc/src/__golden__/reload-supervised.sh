#!/sbin/openrc-run
# Managed by tend. Edits are overwritten on the next apply.

description=web
supervisor=supervise-daemon
respawn_delay=1
respawn_max=0
command=/opt/web/bin/server
output_log="/var/log/${RC_SVCNAME}.log"
error_log="/var/log/${RC_SVCNAME}.log"
extra_started_commands="reload"
description_reload='Send SIGHUP to the program'

# OpenRC signals only the program: stop_post ends the rest of its process group.
stop_pre() {
	tend_group=$(service_get_value child_pid)
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

reload() {
	ebegin "Reloading ${RC_SVCNAME}"
	supervise-daemon "${RC_SVCNAME}" --signal HUP
	eend $?
}
