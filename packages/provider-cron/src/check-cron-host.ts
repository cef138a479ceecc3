import type { ReadContext, Resource, TendError, Timer } from "@tend/core/contract";
import { crontabErrors } from "./crontab-errors.js";
import { findCronDaemons, type InstalledCron } from "./find-cron-daemons.js";
import { findPrograms, PROGRAM_DIRS } from "./find-programs.js";

/**
 * Whether a cron here would run the timers: otherwise apply would write them, exit 0, and nothing
 * would ever run. Every timer needs an executable cron daemon that reads /etc/cron.d (the seed's:
 * cronie, vixie-cron, Debian's cron); a system timer needs /etc/cron.d, a user timer an executable
 * `crontab`. Each problem is one error naming the first timer it stops. Under `--root` the image's
 * own files count.
 */
export async function checkCronHost(resources: Resource[], ctx: ReadContext): Promise<TendError[]> {
  const timers = resources.filter((r): r is Timer => r.type === "timer");
  const [first] = timers;
  if (!first) return [];
  const daemons = await findCronDaemons(ctx.files);
  if (!daemons.some((d) => d.kind === "cron" && d.executable)) return [crontabErrors.cronMissing(ref(first), noDaemon(daemons))];

  const problems: TendError[] = [];
  const system = timers.find((t) => !t.user);
  if (system && !(await ctx.files.isDirectory("/etc/cron.d"))) {
    problems.push(crontabErrors.cronMissing(ref(system), "/etc/cron.d does not exist, so no cron would run it"));
  }
  const user = timers.find((t) => t.user);
  if (user && !(await findPrograms("crontab", ctx.files)).some((p) => p.executable)) {
    problems.push(crontabErrors.cronMissing(ref(user), `\`crontab\` is not installed (in ${dirList()}), so tend cannot add it to a crontab`));
  }
  return problems;
}

function ref(timer: Timer): string {
  return `timer:${timer.name}`;
}

function noDaemon(found: InstalledCron[]): string {
  const others = found.filter((d) => d.kind !== "cron" && d.executable);
  if (others.length > 0) {
    const named = others.map((d) => `${d.kind} (${d.path})`).join(" and ");
    return others.length === 1
      ? `the only cron here is ${named}, which does not read /etc/cron.d and is not supported`
      : `the only crons here are ${named}, which do not read /etc/cron.d and are not supported`;
  }
  const broken = found.find((d) => !d.executable);
  if (broken) return `${broken.path} is not an executable file, so no cron would run it`;
  return `no cron daemon is installed (no cron or crond in ${dirList()}), so no cron would run it`;
}

function dirList(): string {
  return `${PROGRAM_DIRS.slice(0, -1).join(", ")} or ${PROGRAM_DIRS.at(-1)}`;
}
