import { topLevelEntries } from "./print-sections.js";

/** What `launchctl print <domain>/<label>` says about one loaded job. */
export interface JobPrint {
  /** launchd's word: `running`, `not running`, `waiting`, `spawn scheduled`, … */
  state?: string;
  /** The running process, when there is one. */
  pid?: number;
  /** Exit status of the last run; undefined when it never exited (`(never exited)`). */
  lastExitCode?: number;
  /** `Terminated: 15` when the last run ended on a signal. */
  lastSignal?: string;
  /** How many times launchd started it. */
  runs?: number;
}

function integer(text: string | undefined): number | undefined {
  const match = text === undefined ? null : /^(-?\d+)\b/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** Reads the top level of a printed job: `state`, `pid`, `last exit code` (`78: EX_CONFIG` too), `runs`. */
export function parseJobPrint(text: string): JobPrint {
  const entries = topLevelEntries(text);
  const result: JobPrint = {};
  const state = entries.get("state");
  if (state !== undefined) result.state = state;
  const pid = integer(entries.get("pid"));
  if (pid !== undefined && pid > 0) result.pid = pid;
  const lastExitCode = integer(entries.get("last exit code"));
  if (lastExitCode !== undefined) result.lastExitCode = lastExitCode;
  const lastSignal = entries.get("last terminating signal");
  if (lastSignal !== undefined) result.lastSignal = lastSignal;
  const runs = integer(entries.get("runs"));
  if (runs !== undefined) result.runs = runs;
  return result;
}
