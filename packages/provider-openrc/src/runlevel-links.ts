import type { ApplyContext } from "@tend/core/contract";
import { runlevelsOf } from "./read-runlevels.js";
import { DEFAULT_RUNLEVEL, initScriptPath, runlevelLinkPath } from "./script-name.js";

/**
 * Enabling is a link in a runlevel, which is all `rc-update add <name> default` makes
 * (`/etc/runlevels/default/<name>` → `/etc/init.d/<name>`). rc-update takes one service a call,
 * so tend makes the links itself, on a live host as in an image root: no command per service.
 */
export async function addToDefaultRunlevel(script: string, ctx: ApplyContext): Promise<void> {
  const link = runlevelLinkPath(script, DEFAULT_RUNLEVEL);
  if (!(await ctx.files.exists(link))) await ctx.files.symlink(link, initScriptPath(script));
}

/**
 * Removes the links from the runlevels given (every one when none are), as `rc-update del`
 * would, from `runlevels` as readRunlevels read them; the runlevels it was in.
 */
export async function removeFromRunlevels(script: string, runlevels: Map<string, Set<string>>, ctx: ApplyContext, among?: readonly string[]): Promise<string[]> {
  const linked = runlevelsOf(runlevels, script, among);
  for (const runlevel of linked) await ctx.files.remove(runlevelLinkPath(script, runlevel));
  return linked;
}
