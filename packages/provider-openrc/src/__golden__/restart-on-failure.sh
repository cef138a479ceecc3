#!/sbin/openrc-run
# Managed by tend. Edits are overwritten on the next apply.

description=web
# restart = "on_failure": supervise-daemon restarts the program on any exit, as for "always"
supervisor=supervise-daemon
respawn_delay=1
respawn_max=0
command=/opt/web/bin/server
command_args="--port 8080"
output_log="/var/log/${RC_SVCNAME}.log"
error_log="/var/log/${RC_SVCNAME}.log"
