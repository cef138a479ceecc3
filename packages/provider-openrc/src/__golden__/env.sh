#!/sbin/openrc-run
# Managed by tend. Edits are overwritten on the next apply.

description=env
supervisor=supervise-daemon
respawn_delay=1
respawn_max=0
command=/opt/env/bin/env-demo
output_log="/var/log/${RC_SVCNAME}.log"
error_log="/var/log/${RC_SVCNAME}.log"

export EMPTY=''
export PLAIN=info
export TRICKY='$(id) `id` "q" '\''single'\'' back\slash ${HOME} * ~ a  b'
export ZED=last
