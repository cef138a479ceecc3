/** One supervised process as `sv status` prints it (the service, or its log service). */
export interface SvProcess {
  state: "run" | "down" | "finish";
  pid?: number;
  /** Seconds since the last state change (runsv's own clock). */
  seconds: number;
  /** The trailing flags, such as `normally up`, `want down`, `got TERM`, `paused`. */
  flags: string[];
}

/** What sv said about one service directory. */
export interface SvStatus {
  /** The line as printed, for messages. */
  line: string;
  /** The service's state, when runsv answered. */
  service?: SvProcess;
  /** Its log service's state, when the directory has `log/` and runsv started one. */
  log?: SvProcess;
  /**
   * What sv said instead of a state: the rest of a `fail:` or `warning:` line (`runsv not
   * running`, `unable to open supervise/ok: …`), or of `ok: DIR: runsv not running` (`sv -v exit`).
   */
  error?: string;
  /** For `sv check`: `ok:` (true) or `timeout:` (false); undefined for `sv status`. */
  checked?: boolean;
}

const PROCESS = /^(run|down|finish): (.*?): (?:\(pid (\d+)\) )?(\d+)s((?:, [a-zA-Z ]+)*)$/;

function parseProcess(text: string, name: string): SvProcess | undefined {
  const match = PROCESS.exec(text);
  if (!match || match[2] !== name) return undefined;
  return {
    state: match[1] as SvProcess["state"],
    ...(match[3] === undefined ? {} : { pid: Number(match[3]) }),
    seconds: Number(match[4]),
    flags: match[5] ? match[5].slice(2).split(", ") : [],
  };
}

/** Parses one line of `sv status` (or `sv check`) about the service directory `dir`. */
export function parseSvStatusLine(line: string, dir: string): SvStatus | undefined {
  let rest = line;
  let checked: boolean | undefined;
  const verdict = /^(ok|timeout): /.exec(rest);
  if (verdict) {
    checked = verdict[1] === "ok";
    rest = rest.slice(verdict[0].length);
  }
  const failure = /^(fail|warning|fatal): /.exec(rest);
  if (failure || rest.startsWith(`${dir}: `)) {
    const body = failure ? rest.slice(failure[0].length) : rest;
    if (!body.startsWith(`${dir}: `)) return undefined;
    return { line, error: body.slice(dir.length + 2), ...(checked === undefined ? {} : { checked }) };
  }
  const [main = "", logPart] = splitLogPart(rest, dir);
  const service = parseProcess(main, dir);
  if (!service) return undefined;
  const log = logPart === undefined ? undefined : parseProcess(logPart, "log");
  return { line, service, ...(log ? { log } : {}), ...(checked === undefined ? {} : { checked }) };
}

/** `run: X: (pid 1) 3s; run: log: (pid 2) 3s` -> the two parts, the service's first. */
function splitLogPart(text: string, dir: string): [string, string | undefined] {
  const start = text.indexOf(`: ${dir}: `);
  const at = text.indexOf("; ", start < 0 ? 0 : start + dir.length + 4);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 2)];
}

/**
 * Parses the output of one batched `sv status DIR…` (or `sv check DIR…`) into a map from each
 * directory to what sv said about it. sv prints one line per directory, naming it as given.
 */
export function parseSvStatus(output: string, dirs: string[]): Map<string, SvStatus> {
  const result = new Map<string, SvStatus>();
  let next = 0;
  for (const line of output.split("\n")) {
    if (line === "") continue;
    // sv answers in argument order: the next directory is the likely one, the others the fallback.
    const expected = dirs[next];
    const first = expected === undefined || result.has(expected) ? undefined : parseSvStatusLine(line, expected);
    if (first) {
      result.set(expected!, first);
      next += 1;
      continue;
    }
    for (const [i, dir] of dirs.entries()) {
      if (result.has(dir)) continue;
      const status = parseSvStatusLine(line, dir);
      if (status) {
        result.set(dir, status);
        next = i + 1;
        break;
      }
    }
  }
  return result;
}

/** Running, as the Datum seed means it: runsv runs the process and was not asked to stop it. */
export function isRunning(status: SvStatus | undefined): boolean {
  return status?.service?.state === "run" && !status.service.flags.includes("want down");
}
