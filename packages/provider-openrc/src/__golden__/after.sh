#!/sbin/openrc-run
# Managed by tend. Edits are overwritten on the next apply.

description=api
supervisor=supervise-daemon
respawn_delay=1
respawn_max=0
command=/opt/api/bin/api
output_log="/var/log/${RC_SVCNAME}.log"
error_log="/var/log/${RC_SVCNAME}.log"

depend() {
	need net
	after tend-db tend-cache
}
