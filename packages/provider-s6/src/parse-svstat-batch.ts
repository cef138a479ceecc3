import { TendError } from "@tend/core/contract";
import { SVSTAT_FIELDS } from "./svstat-batch.js";

/** What s6-supervise reports for one service directory. */
export type SupervisedStatus =
  | { supervised: false }
  | {
      supervised: true;
      /** A process runs `./run`. */
      up: boolean;
      /** s6-supervise restarts the program when it dies (false after `s6-svc -d` or finish exit 125). */
      wantedUp: boolean;
      /** No `./down` file (s6-rc keeps one while it considers the service down). */
      normallyUp: boolean;
      /** Readiness as notified through `notification-fd`; never true for a service without it. */
      ready: boolean;
      pid?: number;
      exitCode?: number;
      signal?: string;
      /** TAI64N label of the last up/down change. */
      since: string;
      /** Seconds since the last up/down change. */
      forSeconds: number;
    };

function flag(word: string | undefined, line: string): boolean {
  if (word === "true") return true;
  if (word === "false") return false;
  throw unparsable(line);
}

function integer(word: string | undefined, line: string): number {
  if (word === undefined || !/^-?\d+$/.test(word)) throw unparsable(line);
  return Number(word);
}

function unparsable(line: string): TendError {
  return new TendError("TEND_S6_SVSTAT_OUTPUT", `could not read s6-svstat output: \`${line}\``, {
    hint: `tend expects s6 2.11 or later, whose s6-svstat -o prints ${SVSTAT_FIELDS.join(",")}`,
  });
}

/** Parses the output of {@link svstatBatchCommand}, keyed by service directory. */
export function parseSvstatBatch(output: string): Map<string, SupervisedStatus> {
  const result = new Map<string, SupervisedStatus>();
  for (const line of output.split("\n")) {
    if (line.trim() === "") continue;
    const [dir, ...words] = line.trim().split(/ +/);
    if (!dir) continue;
    if (words[0] === "failed") {
      const code = integer(words[1], line);
      if (code !== 1) {
        throw new TendError("TEND_S6_SVSTAT_FAILED", `s6-svstat exited ${code} for ${dir}`, {
          hint: code === 127 ? "Install s6: tend's s6 provider needs s6-svstat on PATH" : "Run `s6-svstat DIR` by hand to see why",
        });
      }
      result.set(dir, { supervised: false });
      continue;
    }
    if (words.length !== SVSTAT_FIELDS.length) throw unparsable(line);
    const [up, wantedUp, normallyUp, ready, pid, exitCode, signal, since, forSeconds] = words;
    const pidValue = integer(pid, line);
    const exitValue = integer(exitCode, line);
    result.set(dir, {
      supervised: true,
      up: flag(up, line),
      wantedUp: flag(wantedUp, line),
      normallyUp: flag(normallyUp, line),
      ready: flag(ready, line),
      ...(pidValue > 0 ? { pid: pidValue } : {}),
      ...(exitValue >= 0 ? { exitCode: exitValue } : {}),
      ...(signal && signal !== "NA" ? { signal } : {}),
      since: since ?? "",
      forSeconds: integer(forSeconds, line),
    });
  }
  return result;
}
