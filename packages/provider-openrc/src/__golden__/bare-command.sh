#!/sbin/openrc-run
# Managed by tend. Edits are overwritten on the next apply.

description=syncthing
supervisor=supervise-daemon
respawn_delay=1
respawn_max=0
command=/usr/bin/env
command_args="syncthing serve --no-browser"
output_log="/var/log/${RC_SVCNAME}.log"
error_log="/var/log/${RC_SVCNAME}.log"

depend() {
	need net
}
