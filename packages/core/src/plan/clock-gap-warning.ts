import type { Capabilities } from "../contract/capabilities.js";
import { clockText as clock, dayText, type ClockGap } from "../schedule/clock-gaps.js";
import { matchesDate } from "../schedule/next-firings.js";
import type { Schedule } from "../schedule/parse-schedule.js";

type Behaviour = NonNullable<Capabilities["timer"]>["skippedTimes"];

/**
 * A warning for a timer that runs at set times of day (neither its hour nor its minute field
 * starts with `*`: cron(8)'s "jobs that run at a particular time") when the first of `gaps` that
 * holds one of its times comes: that time does not happen that day. What happens instead is the
 * init's (`behaviour`, said by `who`). Undefined when no gap holds one of its times.
 */
export function clockGapWarning(schedule: Schedule, gaps: readonly ClockGap[], zone: string, who: string, behaviour: Behaviour): string | undefined {
  if (!atTimesOfDay(schedule)) return undefined;
  const hours = new Set(schedule.hour.values);
  const minutes = new Set(schedule.minute.values);
  for (const gap of gaps) {
    if (!matchesDate(schedule, gap)) continue;
    let at: number | undefined;
    for (let minute = gap.from; minute < gap.to && at === undefined; minute++) {
      if (hours.has(Math.floor(minute / 60)) && minutes.has(minute % 60)) at = minute;
    }
    if (at === undefined) continue;
    const date = dayText(gap);
    const then =
      behaviour === "skip"
        ? `${who} does not run it that day`
        : behaviour === "run-after"
          ? `${who} runs it right after the jump, at ${clock(gap.to)}`
          : `what ${who} does then is not known`;
    return `runs at ${clock(at)}, a time ${zone} skips on ${date} (clocks go from ${clock(gap.from)} to ${clock(gap.to)}): ${then}; pick a time outside ${clock(gap.from)}–${clock(gap.to)} to run it at its time every day`;
  }
  return undefined;
}

/** Whether a schedule runs at set times of day: neither its hour nor its minute field starts with `*`. */
export function atTimesOfDay(schedule: Schedule): boolean {
  return !schedule.hour.star && !schedule.minute.star;
}
