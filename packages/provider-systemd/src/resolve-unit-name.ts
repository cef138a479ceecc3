import { basename } from "node:path";
import type { ApplyContext } from "@tend/core/contract";
import { systemctl } from "./systemctl-command.js";
import { managerDirectories, userUnitSearchPath } from "./unit-directories.js";

/**
 * The real name of a distro unit, for `enable` and `disable`, which systemd refuses on an alias
 * ("Refusing to operate on alias name": Debian's `sshd.service` is a link to `ssh.service`).
 * Live, systemd answers (`show -p Id`); in an image root, the alias link is read by hand.
 */
export async function resolveUnitName(unit: string, ctx: ApplyContext): Promise<string> {
  if (!ctx.offline) {
    const result = await ctx.run.run(systemctl(ctx, ["show", "-p", "Id", "--value", "--", unit]));
    return result.stdout.trim() || unit;
  }
  const dirs = ctx.scope.kind === "user" ? userUnitSearchPath(ctx.scope.home) : managerDirectories(ctx.scope);
  for (const dir of dirs) {
    const target = await ctx.files.readLink(`${dir}/${unit}`);
    if (target !== null) return target === "/dev/null" ? unit : basename(target);
    if (await ctx.files.exists(`${dir}/${unit}`)) return unit;
  }
  return unit;
}
