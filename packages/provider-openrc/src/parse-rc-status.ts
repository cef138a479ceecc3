/** One service as `rc-status` reports it. */
export interface RcStatusEntry {
  /** `started`, `stopped`, `crashed`, `unsupervised`, `failed`, `starting`, `stopping`, `inactive`, `scheduled`. */
  status: string;
  /** supervise-daemon services: time since the last (re)spawn, `00:04:15` or `1 day(s) 00:04:15`. */
  uptime?: string;
  /** supervise-daemon services: how often it respawned the program. */
  respawns?: number;
}

// ` t-sup                      [  started 00:04:15 (1) ]`; a long name leaves one space.
const LINE = /^ (\S+) +\[ (.*) \]$/;
const STATUS = /^(\S+)(?: (.*?))?(?: \((\d+)\))?$/;

/**
 * Parses `rc-status -C -s` (every service in /etc/init.d, with its state). Lines it does not
 * recognise are skipped: rc-status prints dependency warnings on stderr only, but a future
 * version may add headings.
 */
export function parseRcStatus(stdout: string): Map<string, RcStatusEntry> {
  const entries = new Map<string, RcStatusEntry>();
  for (const line of stdout.split("\n")) {
    const match = LINE.exec(line.trimEnd());
    const status = match && STATUS.exec(match[2]!.trim());
    if (!match || !status) continue;
    const entry: RcStatusEntry = { status: status[1]! };
    if (status[2]) entry.uptime = status[2];
    if (status[3] !== undefined) entry.respawns = Number(status[3]);
    entries.set(match[1]!, entry);
  }
  return entries;
}
