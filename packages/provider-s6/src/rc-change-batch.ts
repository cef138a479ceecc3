import { errors, type ApplyContext, type CommandResult } from "@tend/core/contract";
import { changeCommand } from "./s6-rc-commands.js";

/** One s6-rc service a batched change acts on, and the resource it belongs to. */
export interface RcTarget {
  key: string;
  name: string;
}

export interface RcChangeOptions {
  /** Exit codes of a change that count as done (removal accepts 3: a name the live database never had). */
  okCodes?: number[];
}

/**
 * `s6-rc -u|-d change A B C` once for many services, which s6-rc brings up or down in parallel,
 * waiting for each. s6-rc exits 1 when some transitions failed and names each service it could
 * not change (`unable to start service tend-web: …`): those fail, the others are done. On any
 * other failure (a timeout, a name it does not know) each service is tried alone, so the failure
 * lands on the right resource. Resolves with the failures by resource key.
 */
export async function rcChangeBatch(ctx: ApplyContext, direction: "up" | "down", targets: RcTarget[], options: RcChangeOptions = {}): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  if (targets.length === 0) return failures;
  const ok = options.okCodes ?? [0];
  const command = { ...changeCommand(direction, targets.map((t) => t.name)), okCodes: "any" as const };
  let result: CommandResult;
  try {
    result = await ctx.run.run(command);
  } catch (error) {
    for (const target of targets) failures.set(target.key, error);
    return failures;
  }
  if (ok.includes(result.exitCode)) return failures;
  const named = unableLines(result.stderr, direction);
  const pinned = targets.filter((t) => named.has(t.name));
  if (targets.length > 1 && result.exitCode === 1 && pinned.length > 0) {
    for (const target of pinned) failures.set(target.key, errors.commandFailed(changeCommand(direction, [target.name]).argv, 1, named.get(target.name)!));
    return failures;
  }
  if (targets.length === 1) {
    failures.set(targets[0]!.key, errors.commandFailed(command.argv, result.exitCode, detail(result)));
    return failures;
  }
  for (const target of targets) {
    try {
      await ctx.run.run({ ...changeCommand(direction, [target.name]), okCodes: ok });
    } catch (error) {
      failures.set(target.key, error);
    }
  }
  return failures;
}

/** s6-rc's `unable to start service NAME: …` lines, by service. */
function unableLines(stderr: string, direction: "up" | "down"): Map<string, string> {
  const verb = direction === "up" ? "start" : "stop";
  const found = new Map<string, string>();
  for (const line of stderr.split("\n")) {
    const match = new RegExp(`unable to ${verb} service (\\S+?):`).exec(line);
    if (match) found.set(match[1]!, line.trim());
  }
  return found;
}

function detail(result: CommandResult): string {
  return (result.stderr.trim() || result.stdout.trim()).split("\n").slice(-5).join("\n");
}
