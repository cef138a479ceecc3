import type { ApplyContext, ResourceChange } from "@tend/core/contract";

/**
 * After scripts or their conf.d files changed: `rc-update -u` rebuilds OpenRC's dependency
 * cache. OpenRC rebuilds it by itself when a script is newer than the cache, but compares
 * whole seconds, so a script written in the same second as the cache was built would start
 * with stale dependencies.
 */
export async function updateDependencyCache(_changes: ResourceChange[], paths: string[], ctx: ApplyContext): Promise<void> {
  if (ctx.offline) return;
  if (!paths.some((path) => path.startsWith("/etc/init.d/") || path.startsWith("/etc/conf.d/"))) return;
  await ctx.run.run({ argv: ["rc-update", "-u"] });
}
