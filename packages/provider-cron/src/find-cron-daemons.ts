import { posix } from "node:path";
import type { HostFiles } from "@tend/core/contract";
import { findPrograms, type HostProgram } from "./find-programs.js";

/**
 * Which cron a program is. `cron` reads /etc/cron.d: Debian's cron (/usr/sbin/cron), cronie
 * (/usr/sbin/crond, /usr/bin/crond on Arch and Void), vixie-cron. The others do not, and the seed
 * supports none of them: busybox's applet (Alpine links /usr/sbin/crond to /bin/busybox), dcron
 * (also installed as crond), and snooze, which reads no crontab at all.
 */
export type CronKind = "cron" | "busybox crond" | "dcron" | "snooze";

export interface InstalledCron extends HostProgram {
  kind: CronKind;
}

/**
 * Every cron daemon program on the host, in PATH order, with what it is; a file reached by several
 * paths (/sbin/crond and /usr/sbin/crond on a merged /usr) once.
 */
export async function findCronDaemons(files: HostFiles): Promise<InstalledCron[]> {
  const found: InstalledCron[] = [];
  for (const name of ["cron", "crond", "snooze"]) {
    for (const program of await findPrograms(name, files)) {
      if (program.file !== undefined && found.some((d) => d.file === program.file)) continue;
      found.push({ ...program, kind: name === "snooze" ? "snooze" : await identify(program, files) });
    }
  }
  return found;
}

/** busybox by the file a link leads to or by its banner, dcron by the name in its usage text. */
async function identify(program: HostProgram, files: HostFiles): Promise<CronKind> {
  if (program.file === undefined || !program.executable) return "cron";
  if (posix.basename(program.file) === "busybox") return "busybox crond";
  const bytes = await files.readFile(program.file).catch(() => null);
  if (bytes?.includes("BusyBox v")) return "busybox crond";
  if (bytes?.includes("dillon's cron daemon")) return "dcron";
  return "cron";
}
