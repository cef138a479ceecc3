/** One line of `dinitctl list`. */
export interface ListedService {
  name: string;
  /** Current state: started (`+`, or `s` when skipped), starting (`<<`), stopping (`>>`) or stopped. */
  state: "started" | "starting" | "stopping" | "stopped";
  /** The state dinit is heading for: a pair on the left (`{ }`, or `[ ]` when explicit) is started, `{ }` on the right stopped. */
  target: "started" | "stopped" | "none";
  /** `[+]`: started explicitly (`dinitctl start`), not only as a dependency. */
  explicit: boolean;
  /** `X` in the stopped column: it failed to start or exited unsuccessfully. */
  failed: boolean;
  pid?: number;
  exitStatus?: number;
  signal?: number;
  /** The line as printed, for messages. */
  line: string;
}

// [ A B C mid D E F ] name...  (dinitctl.cc, list_services)
const LINE = /^\[([[{ ])([+s ])([\]} ])(<<|>>| {2})([{ ])([-X ])([} ])\] (\S+)(.*)$/;

/**
 * Parses `dinitctl list`: loaded services only. Columns per dinitctl(8) and its source: the left
 * bracket pair is `[ ]` when explicitly activated, `{ }` when the target state is started; `+` is
 * started; `<<` / `>>` starting / stopping; the right pair `{ }` when the target is stopped, with
 * `-` stopped or `X` failed. Suffixes: `(pid: N)`, `(exit status: N)`, `(signal: N)`.
 */
export function parseDinitList(output: string): Map<string, ListedService> {
  const services = new Map<string, ListedService>();
  for (const line of output.split("\n")) {
    const match = LINE.exec(line);
    if (!match) continue;
    const [, left, started, , moving, right, stopped, , name, rest] = match as unknown as string[];
    const entry: ListedService = {
      name: name!,
      state: moving === "<<" ? "starting" : moving === ">>" ? "stopping" : started !== " " ? "started" : "stopped",
      target: left !== " " ? "started" : right === "{" ? "stopped" : "none",
      explicit: left === "[",
      failed: stopped === "X",
      line,
    };
    const pid = /\(pid: (\d+)\)/.exec(rest!);
    if (pid) entry.pid = Number(pid[1]);
    const exit = /\(exit status: (-?\d+)\)/.exec(rest!);
    if (exit) entry.exitStatus = Number(exit[1]);
    const signal = /\(signal: (\d+)\)/.exec(rest!);
    if (signal) entry.signal = Number(signal[1]);
    services.set(entry.name, entry);
  }
  return services;
}
