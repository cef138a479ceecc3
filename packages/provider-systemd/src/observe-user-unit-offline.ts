import type { Observation, ReadContext } from "@tend/core/contract";
import { findUserUnitFile } from "./find-user-unit-file.js";
import { parseInstallSection } from "./parse-install-section.js";

/**
 * A user unit in an image root, read by hand (systemd refuses `--user` with `--root`). It exists
 * when its file, or an instance's template, is in one of the user manager's folders. It is
 * enabled when a link to it is in a `.wants/` or `.requires/` folder, or an alias link names it,
 * in the user's configuration or the global one (what `systemctl --user enable` and `--global
 * enable` make); a unit whose `[Install]` names nothing is static (only `Also=`: indirect), and a
 * masked one masked: for those, enabled is unobservable. Nothing runs offline, so no state.
 */
export async function observeUserUnitOffline(unit: string, ctx: ReadContext): Promise<Observation> {
  const found = await findUserUnitFile(unit, ctx);
  if (!found) return { exists: false, enabled: false };
  if (found.kind === "masked") return { exists: true, unitFileState: "masked" };
  if (await linkedInConfig(found.unit, ctx)) return { exists: true, enabled: true, unitFileState: "enabled" };
  const install = parseInstallSection(found.text);
  if (install.wantedBy.length + install.requiredBy.length + install.alias.length === 0) {
    return { exists: true, unitFileState: install.also.length > 0 ? "indirect" : "static" };
  }
  return { exists: true, enabled: false, unitFileState: "disabled" };
}

/** Whether enabling left a link to `unit` in the user's or the global user configuration. */
async function linkedInConfig(unit: string, ctx: ReadContext): Promise<boolean> {
  const home = ctx.scope.kind === "user" ? ctx.scope.home : ctx.host.home;
  for (const config of [`${home}/.config/systemd/user`, "/etc/systemd/user"]) {
    for (const entry of (await ctx.files.readDir(config)) ?? []) {
      const path = `${config}/${entry}`;
      if (/\.(wants|requires)$/.test(entry)) {
        if (await ctx.files.exists(`${path}/${unit}`)) return true;
        continue;
      }
      const target = await ctx.files.readLink(path);
      if (target !== null && entry !== unit && target.endsWith(`/${unit}`)) return true;
    }
  }
  return false;
}
