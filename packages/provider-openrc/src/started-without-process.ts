import type { ApplyContext, HostFiles } from "@tend/core/contract";
import { liveSupervision } from "./live-supervision.js";
import { endGroupCommand, readProcessGroup } from "./process-group.js";
import { rcService } from "./rc-commands.js";
import { parsePid } from "./read-daemon.js";
import type { Supervision } from "./supervision.js";

/** What a caller has just read of the service: its {@link liveSupervision}, not to be read again. */
export interface KnownLiveness {
  live: Supervision | undefined;
}

/**
 * Whether no process OpenRC recorded for a tend service lives: no live `child_pid` of
 * supervise-daemon's, no live supervise-daemon, no live background daemon. A supervised
 * service's stop ends the program and removes supervise-daemon's records before openrc-run
 * records the service stopped, and an apply killed while it stops a process kept the old way
 * (see stopKeptBy) leaves it stopped before OpenRC's record is reset: either way OpenRC can count
 * a service started with nothing behind it. `rc-status` then says `started`, and where the
 * script on disk is supervised its `stop` fails ("failed to stop"), so a restart does too.
 */
async function noLiveProcess(files: HostFiles, script: string, known?: KnownLiveness): Promise<boolean> {
  const child = parsePid(await files.readFile(`/run/openrc/options/${script}/child_pid`));
  if (child !== undefined && (await files.exists(`/proc/${child}`))) return false;
  return (known ? known.live : await liveSupervision(files, script)) === undefined;
}

/** OpenRC counts the service started (its link in /run/openrc/started) while no process it recorded lives: see {@link noLiveProcess}. */
export async function startedWithoutProcess(files: HostFiles, script: string, known?: KnownLiveness): Promise<boolean> {
  return (await files.exists(`/run/openrc/started/${script}`)) && (await noLiveProcess(files, script, known));
}

/**
 * What stopping such a service comes to: the rest of any process group its records name is ended,
 * as the script's stop_post would, and OpenRC's record reset (`zap`), so the service is stopped
 * and the next start is the script's. Its own stop is not run: it would fail.
 */
export async function resetStarted(script: string, ctx: ApplyContext): Promise<void> {
  for (const supervision of ["supervise-daemon", "start-stop-daemon"] as const) {
    const group = await readProcessGroup(ctx.files, script, supervision);
    if (group !== undefined) await ctx.run.run({ argv: endGroupCommand(group) });
  }
  await ctx.run.run({ argv: rcService(script, "zap") });
}
