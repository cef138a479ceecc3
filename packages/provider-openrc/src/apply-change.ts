import type { ApplyContext, ResourceChange, Service } from "@tend/core";
import { rcService, rcUpdateAdd, rcUpdateDel } from "./rc-commands.js";
import { readRunlevels, runlevelsOf } from "./read-runlevels.js";
import { BOOT_RUNLEVELS, DEFAULT_RUNLEVEL, initScriptPath, runlevelLinkPath, scriptName } from "./script-name.js";
import { backgroundPidfile, supervisionOf } from "./supervision.js";

/**
 * Carries out an add or change: `rc-update add <name> default` and `rc-service <name> start`
 * (the seed), `restart`, `stop`, `reload`. Under `--root` only the runlevel links change.
 */
export async function applyChange(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  const service = change.resource as Service;
  const script = scriptName(service);
  for (const op of change.ops) {
    if (ctx.offline && op !== "enable" && op !== "disable") continue;
    if (op === "enable") await enable(script, ctx);
    else if (op === "disable") await disable(script, ctx);
    else if (op === "start") await start(script, change.action, ctx);
    else if (op === "restart") await restart(service, change, script, ctx);
    else await ctx.run.run({ argv: rcService(script, op) });
  }
}

async function enable(script: string, ctx: ApplyContext): Promise<void> {
  if (!ctx.offline) {
    await ctx.run.run({ argv: rcUpdateAdd(script) });
    return;
  }
  const link = runlevelLinkPath(script, DEFAULT_RUNLEVEL);
  if (!(await ctx.files.exists(link))) await ctx.files.symlink(link, initScriptPath(script));
}

/** Out of every runlevel that starts it at boot (`rc-update del` fails where it is not). */
async function disable(script: string, ctx: ApplyContext): Promise<void> {
  for (const runlevel of runlevelsOf(await readRunlevels(ctx.files), script, BOOT_RUNLEVELS)) {
    if (ctx.offline) await ctx.files.remove(runlevelLinkPath(script, runlevel));
    else await ctx.run.run({ argv: rcUpdateDel(script, runlevel) });
  }
}

/**
 * A new service gets `start`. One that exists is only given a start when it was seen not
 * running, and then `restart`: OpenRC's `start` does nothing for a service it still counts as
 * started whose process died (`crashed`, or any dead background daemon on Debian), while
 * `restart` stops what is left and starts a stopped service just the same.
 */
async function start(script: string, action: ResourceChange["action"], ctx: ApplyContext): Promise<void> {
  await ctx.run.run({ argv: rcService(script, action === "add" ? "start" : "restart") });
}

/**
 * openrc-run stops a service the way its current script says, so after a change between
 * supervise-daemon and a background daemon it would miss the old process and start a second
 * one. Then the old process is stopped the old way, OpenRC's record reset, and the new
 * script started.
 */
async function restart(service: Service, change: ResourceChange, script: string, ctx: ApplyContext): Promise<void> {
  const previous = change.previous;
  const before = previous?.type === "service" && previous.exec !== undefined ? supervisionOf(previous) : undefined;
  if (service.exec === undefined || before === undefined || before === supervisionOf(service)) {
    await ctx.run.run({ argv: rcService(script, "restart") });
    return;
  }
  if (before === "supervise-daemon") {
    await ctx.run.run({ argv: ["supervise-daemon", script, "--stop"], env: { RC_SVCNAME: script } });
  } else {
    await ctx.run.run({ argv: ["start-stop-daemon", "--stop", "--oknodo", "--retry", "TERM/5/KILL/5", "--pidfile", backgroundPidfile(script)] });
  }
  await ctx.run.run({ argv: rcService(script, "zap") });
  await ctx.run.run({ argv: rcService(script, "start") });
  ctx.log(`${change.key}: stopped the process ${before} kept, then started it under ${supervisionOf(service)}`);
}
