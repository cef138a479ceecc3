import type { ApplyContext, ReadContext } from "@tend/core/contract";
import { enableProblem } from "./enable-problem.js";
import { resolveEnableLink } from "./resolve-enable-link.js";

/**
 * Enables at boot without starting: the link `dinitctl enable` would make, made directly. Used
 * offline (`--root`, where no dinit runs) and for a service declared enabled but stopped, since
 * `dinitctl enable` also starts what it enables.
 */
export async function addBootLink(ref: string, name: string, ctx: ApplyContext): Promise<void> {
  const link = await resolveEnableLink(name, ctx.scope, ctx.files);
  const problem = enableProblem(ref, name, link, ctx.scope);
  if (problem) throw problem;
  if (link.kind === "link" && !(await ctx.files.exists(link.path))) await ctx.files.symlink(link.path, link.target);
}

/** Removes the boot link, if any: what `dinitctl disable` leaves when dinit cannot load the service. */
export async function removeBootLink(name: string, ctx: ApplyContext): Promise<void> {
  const link = await resolveEnableLink(name, ctx.scope, ctx.files);
  if (link.kind === "link" && (await ctx.files.exists(link.path))) await ctx.files.remove(link.path);
}

/** Whether the service is linked into its boot service's `waits-for.d` now. */
export async function isBootLinked(name: string, ctx: ReadContext): Promise<boolean> {
  const link = await resolveEnableLink(name, ctx.scope, ctx.files);
  return link.kind === "link" && (await ctx.files.exists(link.path));
}
