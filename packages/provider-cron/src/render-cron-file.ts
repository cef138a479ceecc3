import { MANAGED_HEADER, type Artifact, type Timer } from "@tend/core/contract";
import { cronCommand } from "./cron-command.js";

/** The PATH a system timer runs with (cron's own default is `/usr/bin:/bin`). */
export const CRON_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** Where a system timer lives. */
export function cronFilePath(name: string): string {
  return `/etc/cron.d/tend-${name}`;
}

/**
 * A system timer: `/etc/cron.d/tend-<name>`, root-owned 0644 (cron ignores a group-writable or
 * foreign-owned file), one job run as root, a final newline (cron silently skips a last line
 * without one). `MAILTO=""` because tend's timers behave alike on every host: systemd timers
 * mail nobody, and on a host without an MTA cron would only log that it discarded the output;
 * a job whose output matters should write it somewhere.
 */
export function renderCronFile(timer: Timer): Artifact {
  const lines = [
    MANAGED_HEADER,
    "SHELL=/bin/sh",
    `PATH=${CRON_PATH}`,
    'MAILTO=""',
    `${timer.schedule.trim()} root ${cronCommand(timer)}`,
  ];
  return { path: cronFilePath(timer.name), content: `${lines.join("\n")}\n`, mode: 0o644, owner: "root", group: "root" };
}
