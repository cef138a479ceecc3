import type { ReadContext, Resource } from "@tend/core/contract";
import { dinitctlFor } from "./dinitctl.js";
import { dinitName, logFile } from "./service-paths.js";

const LINES = 20;

/**
 * What to show when a service fails verification: `dinitctl status` (state, exit status, why it
 * could not be launched) and, for a tend service, the last lines of its log file. The file is
 * read as the user in a user scope, so a link planted in a home never makes tend print a file the
 * user could not read.
 */
export async function serviceLogs(resource: Resource, ctx: ReadContext): Promise<string[]> {
  if (resource.type !== "service") return [];
  const name = dinitName(resource);
  const dinitctl = await dinitctlFor(ctx.scope, ctx.files);
  const status = await ctx.run.run(dinitctl.command(["status", name], { okCodes: "any", timeoutMs: 15_000 }));
  const lines = `${status.stdout}${status.stderr}`.split("\n").filter((line) => line.trim() !== "");
  if (resource.exec === undefined) return lines;
  const path = logFile(resource, ctx.scope);
  const tail = await ctx.run.run({
    argv: ["tail", "-n", String(LINES), "--", ctx.files.real(path)],
    okCodes: "any",
    timeoutMs: 15_000,
    ...(ctx.scope.kind === "user" ? { asUser: { uid: ctx.scope.uid, gid: ctx.scope.gid } } : {}),
  });
  if (tail.exitCode === 0 && tail.stdout.trim() !== "") lines.push(`${path}:`, ...tail.stdout.replace(/\n$/, "").split("\n"));
  return lines;
}
