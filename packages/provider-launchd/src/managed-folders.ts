import type { RenderContext } from "@tend/core/contract";

/**
 * Where tend writes plists in this scope, and the prefix of their names: the system's
 * LaunchDaemons, or the user's LaunchAgents. After a lost state, a `tend.*` plist there carrying
 * tend's header is an orphan.
 */
export function managedFolders(ctx: RenderContext): { dir: string; prefix: string }[] {
  const dir = ctx.scope.kind === "user" ? `${ctx.scope.home}/Library/LaunchAgents` : "/Library/LaunchDaemons";
  return [{ dir, prefix: "tend." }];
}
