import type { ApplyContext, ResourceChange } from "@tend/core/contract";
import { renderLongrun } from "./render-longrun.js";
import { SOURCE_DIR, serviceName, sourceDir } from "./s6-layout.js";

/** Where files tend did not write are kept when their service goes: a dot folder, which s6-rc-compile skips. */
export const KEPT_DIR = `${SOURCE_DIR}/.tend-removed`;

/**
 * Before a removed service's files go: files an admin added to its source folder (a
 * `notification-fd`, a `timeout-kill`) are never tend's to delete, but left there they keep the
 * folder, and s6-rc-compile fails on every later apply for a folder without `type`. They are
 * moved, byte for byte, to `/etc/s6/sv/.tend-removed/tend-<name>/`, and the move is logged.
 * What is not a regular file (a folder, a link) stays where it is.
 */
export async function setAsideForeignFiles(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  if (change.resource.type !== "service" || change.resource.exec === undefined) return;
  const dir = sourceDir(change.resource.name);
  const names = await ctx.files.readDir(dir);
  if (!names) return;
  const ours = new Set(renderLongrun(change.resource).map((artifact) => artifact.path));
  const kept = `${KEPT_DIR}/${serviceName(change.resource.name)}`;
  for (const name of names) {
    const path = `${dir}/${name}`;
    if (ours.has(path)) continue;
    const content = await ctx.files.readFile(path);
    if (content === null) continue;
    await ctx.files.mkdir(KEPT_DIR, { mode: 0o755 });
    await ctx.files.mkdir(kept, { mode: 0o755 });
    await ctx.files.writeFile(`${kept}/${name}`, content, { mode: 0o644 });
    await ctx.files.remove(path);
    ctx.log(`${change.key}: kept ${path}, which tend did not write, as ${kept}/${name}`);
  }
}
