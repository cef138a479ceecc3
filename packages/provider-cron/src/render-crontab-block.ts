import type { Artifact, Timer } from "@tend/core/contract";
import { cronCommand } from "./cron-command.js";
import { CRONTAB_BLOCK_STORE, crontabKey } from "./crontab-key.js";

/** The marker lines around a user timer's block. */
export function blockMarkers(name: string): { begin: string; end: string } {
  return { begin: `# BEGIN tend:${name}`, end: `# END tend:${name}` };
}

/**
 * A user timer: a block in the user's crontab, between `# BEGIN tend:<name>` and
 * `# END tend:<name>`, holding one job line (a user crontab has no user field). Nothing else goes
 * in the block: a `K=v` or `MAILTO=` line would apply to every line after it, the user's own jobs
 * included, so the timer's env travels inside its command. The job runs with the user's own
 * crontab settings (`SHELL`, `PATH`, `MAILTO` lines above it, or cron's defaults).
 */
export function renderCrontabBlock(timer: Timer, user: string): Artifact {
  const { begin, end } = blockMarkers(timer.name);
  const content = `${begin}\n${timer.schedule.trim()} ${cronCommand(timer)}\n${end}\n`;
  return { store: CRONTAB_BLOCK_STORE, path: crontabKey(user, timer.name), content };
}
