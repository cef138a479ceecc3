#!/sbin/openrc-run
# Managed by tend. Edits are overwritten on the next apply.

description=pipe
supervisor=supervise-daemon
respawn_delay=1
respawn_max=0
command=/bin/sh
# openrc-run evaluates command_args again: the script stays in tend_exec so that none of it is expanded early
tend_exec='cd /srv && exec ./server 2>&1 | logger -t '\''it'\'''\''s'\'''
command_args='-c "$tend_exec"'
output_log="/var/log/${RC_SVCNAME}.log"
error_log="/var/log/${RC_SVCNAME}.log"
