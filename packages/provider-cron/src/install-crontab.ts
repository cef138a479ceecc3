import type { Runner } from "@tend/core/contract";
import { crontabArgv, type CrontabAccess } from "./crontab-argv.js";

/**
 * Replaces a user's crontab with `text` through `crontab -` (never by writing the spool file:
 * crontab checks the syntax, sets owner and mode, and tells cron). A rejection throws with
 * crontab's own message, and the old crontab stays.
 */
export async function installCrontab(user: string, text: string, run: Runner, access: CrontabAccess): Promise<void> {
  await run.run({ argv: crontabArgv(user, access, "-"), env: { LC_ALL: "C" }, input: text });
}
