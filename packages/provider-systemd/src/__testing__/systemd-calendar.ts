import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The next `iterations` elapses of each OnCalendar expression after `base`, as
 * `TZ=UTC systemd-analyze calendar --iterations=N --base-time=@SECONDS e1 e2 …` reports them.
 * Fails (systemd exits 1) when any expression is invalid.
 */
export async function calendarFirings(expressions: string[], base: Date, iterations: number): Promise<Date[][]> {
  const { stdout } = await run(
    "systemd-analyze",
    ["calendar", `--iterations=${iterations}`, `--base-time=@${Math.floor(base.getTime() / 1000)}`, "--", ...expressions],
    { env: { ...process.env, TZ: "UTC" }, maxBuffer: 16 * 1024 * 1024 },
  );
  const blocks: Date[][] = [];
  for (const line of stdout.split("\n")) {
    if (/^\s*Normalized form:/.test(line)) {
      blocks.push([]);
      continue;
    }
    const elapse = /^\s*(?:Next elapse|Iter\. #\d+): \w+ (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) UTC$/.exec(line);
    if (elapse) {
      const [, y, mo, d, h, mi, s] = elapse.map(Number) as number[];
      blocks[blocks.length - 1]!.push(new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!)));
    }
  }
  if (blocks.length !== expressions.length) throw new Error(`systemd-analyze calendar printed ${blocks.length} blocks for ${expressions.length} expressions`);
  return blocks;
}
