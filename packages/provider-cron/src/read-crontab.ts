import { TendError, type Runner } from "@tend/core/contract";
import { crontabArgv, type CrontabAccess } from "./crontab-argv.js";
import { crontabErrors } from "./crontab-errors.js";

/**
 * A user's crontab as `crontab -l` prints it (Debian's strips the three header lines it wrote;
 * installing through `crontab -` never stores ours, so headers do not pile up). Exit 1 saying
 * `no crontab for` means an empty crontab; any other failure refuses, since treating it as empty
 * would wipe the user's jobs on the next install.
 */
export async function readCrontab(user: string, run: Runner, access: CrontabAccess): Promise<string> {
  const argv = crontabArgv(user, access, "-l");
  let result;
  try {
    result = await run.run({ argv, env: { LC_ALL: "C" }, okCodes: [0, 1] });
  } catch (error) {
    if (TendError.isInstance(error)) throw crontabErrors.unreadable(user, error.message, error);
    throw error;
  }
  if (result.exitCode === 0) return result.stdout;
  if (/^no crontab for /m.test(result.stderr)) return "";
  const detail = (result.stderr.trim() || result.stdout.trim() || "no message").split("\n").slice(-3).join(" ");
  throw crontabErrors.unreadable(user, `\`${argv.join(" ")}\` exited ${result.exitCode}: ${detail}`);
}
