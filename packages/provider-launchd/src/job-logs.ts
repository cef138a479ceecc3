import type { ReadContext, Resource } from "@tend/core/contract";
import { jobLabel } from "./launchd-job.js";

const LINES = 20;

/**
 * The last lines a job wrote, from the `StandardErrorPath` (else `StandardOutPath`) it sets in
 * `launchd = {...}`. launchd keeps no log of its own for a job's output, so without one there is
 * nothing to show, and the answer says so and how to get one. Read with `tail` as the scope's
 * user, so a user's spec cannot make a root run print a file the user could not read.
 */
export async function jobLogs(resource: Resource, ctx: ReadContext): Promise<string[]> {
  if (resource.type === "file") return [];
  const label = jobLabel(resource.name);
  const hatch = resource.type === "service" ? resource.launchd : undefined;
  const path = [hatch?.StandardErrorPath, hatch?.StandardOutPath].find((value): value is string => typeof value === "string");
  if (!path) {
    return [`launchd keeps no output for ${label}; set launchd = { StandardErrorPath: "/path/to/log" } to keep its errors`];
  }
  const asUser = ctx.scope.kind === "user" ? { asUser: { uid: ctx.scope.uid, gid: ctx.scope.gid } } : {};
  const result = await ctx.run.run({ argv: ["tail", "-n", String(LINES), "--", path], okCodes: "any", ...asUser });
  if (result.exitCode !== 0) return [`could not read ${path}: ${result.stderr.trim() || `tail exited ${result.exitCode}`}`];
  return result.stdout.split("\n").filter((line, index, all) => line !== "" || index < all.length - 1);
}
