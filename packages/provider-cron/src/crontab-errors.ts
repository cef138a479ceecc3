import { TendError } from "@tend/core/contract";

/**
 * The cron provider's own errors (no seed text covers them). Codes are permanent. Each says what
 * happened and what to do; none of them leaves a crontab half-written, since they are raised
 * before `crontab -` runs.
 */
export const crontabErrors = {
  /** A marker is malformed, unmatched, nested or duplicated. */
  damaged: (user: string, where: string) =>
    new TendError("TEND_CRONTAB_DAMAGED", `the crontab of ${user} has damaged tend markers: ${where}`, {
      hint: "Fix them with `crontab -e` (each `# BEGIN tend:NAME` needs one `# END tend:NAME` after it, alone on its line), then run tend again; tend does not guess which lines are its own",
    }),
  /** `crontab -l` failed for another reason than the user having no crontab. */
  unreadable: (user: string, detail: string, cause?: unknown) =>
    new TendError("TEND_CRONTAB_UNREADABLE", `could not read the crontab of ${user}: ${detail}`, {
      hint: "Nothing was changed. Check that cron is installed and that the user may use crontab (/etc/cron.allow, /etc/cron.deny)",
      cause,
    }),
  /** The crontab changed between the plan and the write. */
  changed: (user: string, what: string) =>
    new TendError("TEND_CRONTAB_CHANGED", `the crontab of ${user} changed since the plan was made (${what}); nothing was written`, {
      hint: "Someone edited it meanwhile (crontab -e?). Run apply again to plan against the crontab as it is now",
    }),
  /** The user's last line lacks a newline and is a job or a variable: crontab would refuse the file. */
  noFinalNewline: (user: string, line: string) =>
    new TendError(
      "TEND_CRONTAB_NO_FINAL_NEWLINE",
      `the crontab of ${user} ends in \`${line}\` without a newline: cron ignores that line, and crontab refuses to install such a file`,
      {
        hint: "tend does not change your own lines: end the file with a newline (`crontab -e` and save), then run apply again",
      },
    ),
  /**
   * The user's crontab holds bytes that are not UTF-8 (read as U+FFFD): installing the spliced text
   * would write other bytes on the user's own lines than the ones there.
   */
  notUtf8: (user: string, line: number) =>
    new TendError(
      "TEND_CRONTAB_NOT_UTF8",
      `the crontab of ${user} holds bytes that are not UTF-8 on line ${line} (saved as Latin-1?): tend would not write them back as they are, so it leaves the crontab unchanged`,
      {
        hint: `Convert it to UTF-8 as ${user} (\`crontab -l | iconv -f LATIN1 -t UTF-8 | crontab -\`), then run apply again`,
      },
    ),
  /**
   * No cron here would run the timer: no daemon that reads /etc/cron.d, no /etc/cron.d, or no
   * `crontab` for a user timer. `why` ends the sentence `<ref> is a cron job, but <why>`.
   */
  cronMissing: (ref: string, why: string) =>
    new TendError("TEND_CRON_MISSING", `${ref} is a cron job, but ${why}`, {
      hint: "Install a cron that reads /etc/cron.d and brings `crontab`: Debian's `cron` package, or `cronie`; dcron, busybox crond and snooze are not supported",
      resource: ref,
    }),
} as const;
