import { MANAGED_HEADER, shellQuote, TendError, type ApplyContext, type HostFiles, type RenderContext } from "@tend/core/contract";
import { RUNSVDIR, SV_ROOT } from "./service-layout.js";
import { linksTo } from "./links-to.js";

/** The system service that runs one user's runsvdir over `~/.local/service`. */
export interface UserRunsvdir {
  user: string;
  home: string;
  /** `/etc/sv/tend-runsvdir-<user>`. */
  dir: string;
  /** Its link in the runsvdir. */
  link: string;
}

export function userRunsvdir(user: string, home: string): UserRunsvdir {
  const name = `tend-runsvdir-${user}`;
  return { user, home, dir: `${SV_ROOT}/${name}`, link: `${RUNSVDIR}/${name}` };
}

/** The runsvdir service of the scope's user (or of the host facts' user outside a user scope). */
export function scopeRunsvdir(ctx: RenderContext): UserRunsvdir {
  return ctx.scope.kind === "user" ? userRunsvdir(ctx.scope.user, ctx.scope.home) : userRunsvdir(ctx.host.user, ctx.host.home);
}

/**
 * Its `run`: the user's runsvdir, as the user with all their groups, over `~/.local/service`,
 * which it creates (as the user) when missing so a fresh home does not make it fail in a loop.
 */
export function renderUserRunsvdirScript(runsvdir: UserRunsvdir): string {
  return [
    "#!/bin/sh",
    MANAGED_HEADER,
    `# Runs the runit services of ${runsvdir.user} (~/.local/service), as ${runsvdir.user}.`,
    "exec 2>&1",
    `export USER=${shellQuote(runsvdir.user)} HOME=${shellQuote(runsvdir.home)}`,
    `groups="$(id -Gn "$USER" | tr ' ' ':')"`,
    `chpst -u "$USER:$groups" mkdir -p "$HOME/.local/service"`,
    `exec chpst -u "$USER:$groups" runsvdir "$HOME/.local/service"`,
    "",
  ].join("\n");
}

/** Whether the service is in place: its `run` as tend writes it, and linked into the runsvdir. */
export async function userRunsvdirInPlace(runsvdir: UserRunsvdir, files: HostFiles): Promise<boolean> {
  return (await files.readFile(`${runsvdir.dir}/run`)) === renderUserRunsvdirScript(runsvdir) && (await linksTo(files, runsvdir.link, runsvdir.dir));
}

/** The error for a user apply that would have to create the service without being root. */
export function needsRoot(runsvdir: UserRunsvdir, ref?: string): TendError {
  return new TendError(
    "TEND_RUNIT_NEEDS_ROOT",
    `runit runs the user services of ${runsvdir.user} through the system service ${runsvdir.dir}, which is missing or out of date, and only root can write it`,
    { hint: `Run this apply as root: tend apply --user ${runsvdir.user}`, ...(ref ? { resource: ref } : {}) },
  );
}

/**
 * Creates or repairs the user's runsvdir service (root only; owned by root). It is not an artifact
 * of any user service: it stays when the last one goes. Returns true when it wrote anything.
 */
export async function ensureUserRunsvdir(runsvdir: UserRunsvdir, ctx: ApplyContext): Promise<boolean> {
  if (await userRunsvdirInPlace(runsvdir, ctx.files)) return false;
  if (!ctx.offline && process.getuid?.() !== 0) throw needsRoot(runsvdir);
  const root = { owner: "root", group: "root" };
  if (!(await ctx.files.isDirectory(RUNSVDIR))) await ctx.files.mkdir(RUNSVDIR, { mode: 0o755, ...root });
  await ctx.files.mkdir(runsvdir.dir, { mode: 0o755, ...root });
  await ctx.files.writeFile(`${runsvdir.dir}/run`, renderUserRunsvdirScript(runsvdir), { mode: 0o755, ...root });
  if (!(await linksTo(ctx.files, runsvdir.link, runsvdir.dir))) await ctx.files.symlink(runsvdir.link, runsvdir.dir);
  ctx.log(`runit: wrote ${runsvdir.dir}, the system service that runs the user services of ${runsvdir.user}`);
  return true;
}
