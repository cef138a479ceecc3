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

reload() {
	ebegin "Reloading ${RC_SVCNAME}"
	supervise-daemon "${RC_SVCNAME}" --signal HUP
	eend $?
}
