import { blockLines } from "./print-sections.js";

/** One line of a domain's `services` block: `PID  LAST-EXIT  LABEL`. */
export interface DomainJob {
  /** The running process; launchd prints 0 for a loaded job with none. */
  pid?: number;
  /** The last exit status as printed (`-` when it never exited, `78`, `-9` for a signal). */
  lastExit: string;
}

const SERVICE_LINE = /^\s*(\d+)\s+(\S+)\s+(\S.*?)\s*$/;

/**
 * The jobs loaded in a domain, by label, from `launchctl print system` or `launchctl print
 * gui/<uid>`: one call answers for every job in the domain. Undefined when the output has no
 * `services` block (not something this reader understands).
 */
export function parseDomainPrint(text: string): Map<string, DomainJob> | undefined {
  const lines = blockLines(text, "services");
  if (!lines) return undefined;
  const jobs = new Map<string, DomainJob>();
  for (const line of lines) {
    const match = SERVICE_LINE.exec(line);
    if (!match) continue;
    const pid = Number(match[1]);
    jobs.set(match[3]!, { ...(pid > 0 ? { pid } : {}), lastExit: match[2]! });
  }
  return jobs;
}
