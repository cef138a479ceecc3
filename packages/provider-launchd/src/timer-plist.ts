import { parseExec, parseSchedule, type Timer } from "@tend/core/contract";
import { calendarIntervals } from "./calendar-intervals.js";
import { jobLabel } from "./launchd-job.js";
import type { PlistDict } from "./serialize-plist.js";

/**
 * The plist dictionary of a timer: the command, its environment and one `StartCalendarInterval`
 * entry per combination of listed values. Every schedule is calendar entries, `* * * * *`
 * included: its entry is an empty dictionary, every key missing and so a wildcard
 * (launchd.plist(5): "Missing arguments are considered to be wildcard"), which fires at the top
 * of every minute as cron does. `StartInterval = 60` would not: it counts from when the job was
 * loaded, and restarts the count after each run. No `RunAtLoad`: loading a timer does not run it.
 */
export function timerPlist(timer: Timer): PlistDict {
  const plist: PlistDict = {
    Label: jobLabel(timer.name),
    ProgramArguments: parseExec(timer.exec).argv,
  };
  if (timer.env && Object.keys(timer.env).length > 0) plist.EnvironmentVariables = { ...timer.env };
  plist.StartCalendarInterval = calendarIntervals(parseSchedule(timer.schedule));
  return plist;
}
