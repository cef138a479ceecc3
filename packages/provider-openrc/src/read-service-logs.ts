import type { ReadContext, Resource } from "@tend/core/contract";
import { scriptName } from "./script-name.js";
import { serviceLogPath, supervisionOf } from "./supervision.js";

const LINES = 20;

/**
 * The last lines a supervised tend service wrote: its `output_log`/`error_log`,
 * /var/log/tend-<name>.log. A background (`restart = "no"`) service and a distro service have
 * no log OpenRC knows of.
 */
export async function readServiceLogs(resource: Resource, ctx: ReadContext): Promise<string[]> {
  if (resource.type !== "service" || resource.exec === undefined || supervisionOf(resource) !== "supervise-daemon") return [];
  const path = serviceLogPath(scriptName(resource));
  const result = await ctx.run.run({ argv: ["tail", "-n", String(LINES), "--", path], okCodes: "any" });
  if (result.exitCode !== 0) return [];
  return result.stdout.split("\n").filter((line) => line !== "");
}
