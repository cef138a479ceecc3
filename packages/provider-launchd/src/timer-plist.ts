import { parseExec, parseSchedule, type Timer } from "@tend/core/contract";
import { calendarIntervals } from "./calendar-intervals.js";
import { jobLabel } from "./launchd-job.js";
import type { PlistDict } from "./serialize-plist.js";

/**
 * The plist dictionary of a timer: the command, its environment and one `StartCalendarInterval`
 * entry per combination of listed values. A schedule that restricts nothing (`* * * * *`) has no
 * calendar key to write, so it becomes `StartInterval = 60`. No `RunAtLoad`: loading a timer does
 * not run it.
 */
export function timerPlist(timer: Timer): PlistDict {
  const plist: PlistDict = {
    Label: jobLabel(timer.name),
    ProgramArguments: parseExec(timer.exec).argv,
  };
  if (timer.env && Object.keys(timer.env).length > 0) plist.EnvironmentVariables = { ...timer.env };
  const entries = calendarIntervals(parseSchedule(timer.schedule));
  if (entries.length === 1 && Object.keys(entries[0]!).length === 0) plist.StartInterval = 60;
  else plist.StartCalendarInterval = entries;
  return plist;
}
