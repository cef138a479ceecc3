import { resourceKey, type Observation, type ReadContext, type Resource, type Service } from "@tend/core/contract";
import { liveSupervision } from "./live-supervision.js";
import { parseRcStatus, type RcStatusEntry } from "./parse-rc-status.js";
import { RC_STATUS_ARGV } from "./rc-commands.js";
import { predictBoot } from "./predict-boot.js";
import { readDaemon } from "./read-daemon.js";
import { readRunlevels, runlevelsOf } from "./read-runlevels.js";
import { scriptCanReload } from "./script-can-reload.js";
import { BOOT_RUNLEVELS, initScriptPath, scriptName } from "./script-name.js";
import { scriptSupervision, type Supervision } from "./supervision.js";

/**
 * A tend service the spec wants stopped that OpenRC counts started while nothing it started runs:
 * stopped as the spec asks, yet `rc-service start` would say it is already started until OpenRC's
 * record is reset (see resetStarted), which apply does.
 */
export const STARTED_WITH_NOTHING_RUNNING = "OpenRC counts it started, but nothing it started runs";

/**
 * Observes every service in one `rc-status` call plus file reads: `exists` is the script in
 * /etc/init.d, `enabled` a link in a runlevel OpenRC starts at boot (sysinit, boot, default),
 * `state` running when OpenRC counts the service started and its process (where OpenRC
 * recorded one) is alive. Under `--root` nothing runs and `state` is left unobserved.
 */
export async function observeServices(resources: Resource[], ctx: ReadContext): Promise<Map<string, Observation>> {
  const services = resources.filter((resource): resource is Service => resource.type === "service");
  const observations = new Map<string, Observation>();
  if (services.length === 0) return observations;
  const statuses = ctx.root === undefined ? parseRcStatus((await ctx.run.run({ argv: RC_STATUS_ARGV })).stdout) : undefined;
  const runlevels = await readRunlevels(ctx.files);
  for (const service of services) {
    const script = scriptName(service);
    const text = await ctx.files.readFile(initScriptPath(script));
    const linked = runlevelsOf(runlevels, script);
    const observation: Observation = {
      exists: text !== null,
      enabled: runlevelsOf(runlevels, script, BOOT_RUNLEVELS).length > 0,
      canReload: service.exec === undefined ? text !== null && scriptCanReload(text) : service.reloadSignal !== undefined,
      details: linked.length > 0 ? { runlevels: linked.join(" ") } : {},
    };
    if (text !== null) observation.atBoot = predictBoot(linked);
    if (statuses) {
      const supervision = service.exec === undefined || text === null ? undefined : scriptSupervision(text);
      const { state, details } = await observeState(script, supervision, statuses.get(script), ctx);
      observation.state = state;
      observation.details = { ...observation.details, ...details };
      if (state === "running" && typeof details.pid === "number") observation.mainPid = details.pid;
      if (details.status === "crashed" && service.exec !== undefined && service.desired?.state === "stopped") observation.drift = [STARTED_WITH_NOTHING_RUNNING];
    }
    observations.set(resourceKey("service", service.name), observation);
  }
  return observations;
}

async function observeState(
  script: string,
  supervision: Supervision | undefined,
  entry: RcStatusEntry | undefined,
  ctx: ReadContext,
): Promise<{ state: "running" | "stopped"; details: Record<string, string | number> }> {
  const details: Record<string, string | number> = { status: entry?.status ?? "stopped" };
  if (entry?.uptime) details.uptime = entry.uptime;
  if (entry?.respawns !== undefined) details.respawns = entry.respawns;
  let running = entry?.status === "started" || entry?.status === "starting";
  if (running) {
    const daemon = await readDaemon(ctx.files, script, supervision);
    if (daemon.pid !== undefined) details.pid = daemon.pid;
    // OpenRC still counts it started (Debian's start-stop-daemon cannot tell), but it is gone; or a
    // supervised service has no child_pid and no live daemon of either kind (see noLiveProcess):
    // readDaemon has read the child_pid already.
    const gone = daemon.alive === false || (daemon.pid === undefined && supervision === "supervise-daemon" && (await liveSupervision(ctx.files, script)) === undefined);
    if (gone) {
      details.status = "crashed";
      running = false;
    }
  }
  return { state: running ? "running" : "stopped", details };
}
