import type { ReadContext, Resource, TendError } from "@tend/core";
import { crontabErrors } from "./crontab-errors.js";

/**
 * A system timer needs a cron that reads /etc/cron.d; without that directory the file would be
 * written and never run. One error, naming the first such timer. (User timers need `crontab`,
 * whose absence already fails reading the crontab.)
 */
export async function checkCronHost(resources: Resource[], ctx: ReadContext): Promise<TendError[]> {
  const first = resources.find((r) => r.type === "timer" && !r.user);
  if (!first || (await ctx.files.isDirectory("/etc/cron.d"))) return [];
  return [crontabErrors.cronMissing(`timer:${first.name}`, "/etc/cron.d")];
}
