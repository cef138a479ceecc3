import type { ReadContext, Resource } from "@tend/core/contract";
import { readSvStatus } from "./read-sv-status.js";
import { serviceLayout } from "./service-layout.js";

const LINES = 20;

/**
 * The last lines svlogd kept for a tend service (`<log dir>/current`), then sv's status line.
 * Distro services log wherever their package says, so only the status line is known.
 */
export async function readLogs(resource: Resource, ctx: ReadContext): Promise<string[]> {
  if (resource.type !== "service") return [];
  const layout = serviceLayout(resource, ctx);
  const lines: string[] = [];
  if (!layout.distro) {
    const text = await ctx.files.readFile(`${layout.logDir}/current`);
    if (text) lines.push(...text.split("\n").filter((line) => line !== "").slice(-LINES));
  }
  if (ctx.root === undefined) {
    const status = (await readSvStatus([layout.dir], ctx)).get(layout.dir);
    if (status) lines.push(status.line);
  }
  return lines;
}
