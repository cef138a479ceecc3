import { chmod } from "node:fs/promises";
import { join } from "node:path";
import { writeHostTree } from "@tend/testkit";

/** Stand-ins for programs a cron package installs; the content is what identifies one. */
export const PROGRAMS = {
  debianCron: "\u007fELF...cron (Debian) /etc/cron.d /var/spool/cron/crontabs...",
  cronie: "\u007fELF...cronie 1.7.2 /etc/cron.d...",
  crontab: "\u007fELF...crontab...",
  busybox: "\u007fELF...BusyBox v1.36.1 (2024-06-10) multi-call binary...",
  dcron: "\u007fELF...dillon's cron daemon 4.5...",
  snooze: "\u007fELF...snooze...",
};

/** Writes each program (folders made as needed), executable (0755). */
export async function writePrograms(root: string, programs: Record<string, string>): Promise<void> {
  await writeHostTree(root, programs);
  for (const path of Object.keys(programs)) await chmod(join(root, path), 0o755);
}
