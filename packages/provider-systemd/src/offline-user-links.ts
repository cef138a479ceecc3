import { errors, TendError, type ApplyContext, type Service, type Timer } from "@tend/core/contract";
import { parseInstallSection } from "./parse-install-section.js";
import { resolveUnitName } from "./resolve-unit-name.js";
import { renderArtifacts } from "./render-artifacts.js";
import { findUserUnitFile } from "./find-user-unit-file.js";
import { primaryUnit } from "./unit-name.js";

/**
 * Enables a user unit under `--root`, where systemd refuses `systemctl --user --root`: the same
 * links `systemctl --user enable` makes, in `~/.config/systemd/user` (`<target>.wants/<unit>`,
 * `<target>.requires/<unit>`, aliases), from the unit's `[Install]` section. A tend unit's
 * section comes from rendering it; a distro unit's from its file in the user manager's folders
 * (an instance's from its template, linked under the instance's name).
 */
export async function linkUserUnitOffline(resource: Service | Timer, ctx: ApplyContext): Promise<void> {
  const config = configDir(ctx);
  const found = await findUnitText(resource, ctx);
  const install = parseInstallSection(found.text);
  const instance = /@([^@]+)\.[a-z]+$/.exec(found.unit)?.[1];
  const links = [
    ...install.wantedBy.map((target) => `${config}/${target}.wants/${found.unit}`),
    ...install.requiredBy.map((target) => `${config}/${target}.requires/${found.unit}`),
    ...install.alias.map((alias) => `${config}/${instance === undefined ? alias : alias.replace(/@(\.[a-z]+)$/, `@${instance}$1`)}`),
  ];
  for (const link of links) await ctx.files.symlink(link, found.path);
}

/** Removes every link to the unit that enabling made in `~/.config/systemd/user`. */
export async function unlinkUserUnitOffline(resource: Service | Timer, ctx: ApplyContext): Promise<void> {
  const unit = await resolveUnitName(primaryUnit(resource), ctx);
  const config = configDir(ctx);
  for (const entry of (await ctx.files.readDir(config)) ?? []) {
    const path = `${config}/${entry}`;
    if (/\.(wants|requires)$/.test(entry)) {
      if (await ctx.files.exists(`${path}/${unit}`)) await ctx.files.remove(`${path}/${unit}`);
      continue;
    }
    const target = await ctx.files.readLink(path);
    if (target !== null && entry !== unit && target.endsWith(`/${unit}`)) await ctx.files.remove(path);
  }
}

function configDir(ctx: ApplyContext): string {
  if (ctx.scope.kind !== "user") throw new TendError("TEND_SYSTEMD_SCOPE", "user unit links are made in a user scope only");
  return `${ctx.scope.home}/.config/systemd/user`;
}

async function findUnitText(resource: Service | Timer, ctx: ApplyContext): Promise<{ unit: string; path: string; text: string }> {
  const unit = primaryUnit(resource);
  const rendered = renderArtifacts(resource, ctx).find((artifact) => artifact.path.endsWith(`/${unit}`));
  if (rendered) return { unit, path: rendered.path, text: rendered.content };
  const found = await findUserUnitFile(unit, ctx);
  if (found?.kind === "file") return found;
  const ref = `${resource.type}:${resource.name}`;
  if (found?.kind === "masked") throw new TendError("TEND_UNIT_MASKED", `${ref}: ${unit} is masked (a link to /dev/null), and systemd enables no masked unit`, { resource: ref, hint: "Remove the mask from the image, or leave the service out of the spec" });
  throw errors.unitMissing(ref, unit);
}
