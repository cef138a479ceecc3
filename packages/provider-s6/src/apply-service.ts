import { errors, type ApplyContext, type Command, type Operation, type ResourceChange } from "@tend/core/contract";
import { changeCommand } from "./s6-rc-commands.js";
import { restartedByUpdate } from "./s6-rc-state.js";
import { liveServiceDir, serviceName } from "./s6-layout.js";
import { signalFlag } from "./signal-flags.js";

/**
 * Carries out an add or change once the database is switched. `enable` and `disable` have no
 * command: boot membership is the `tend` bundle in the database `afterWrites` compiled. Offline
 * nothing runs.
 *
 * `start` and `stop` go through s6-rc (which also brings up what the service orders itself after,
 * and waits for readiness when the service directory has a `notification-fd`), followed by the
 * matching s6-svc command: s6-rc's bookkeeping still lists a longrun as up after its `finish`
 * exited 125 or someone ran `s6-svc -d`, and then `s6-rc -u change` alone does nothing.
 */
export async function applyService(change: ResourceChange, ctx: ApplyContext): Promise<void> {
  if (ctx.offline) return;
  for (const op of change.ops) {
    for (const command of commandsFor(op, change, ctx)) await ctx.run.run(command);
  }
}

function commandsFor(op: Operation, change: ResourceChange, ctx: ApplyContext): Command[] {
  const { resource } = change;
  const name = serviceName(resource.name);
  const dir = liveServiceDir(resource.name);
  switch (op) {
    case "enable":
    case "disable":
      return [];
    case "start":
      return [changeCommand("up", [name]), svc("-u", dir)];
    case "stop":
      return [changeCommand("down", [name]), svc("-d", dir)];
    case "restart":
      // A changed definition was restarted by s6-rc-update's conversion file; otherwise (a
      // restartOn trigger) s6-supervise restarts it. Either way s6-rc then brings it up, in case
      // it was down (stopped with a dependency that was removed, for instance).
      return [...(change.filesChanged && restartedByUpdate(ctx.state, name) ? [] : [svc("-r", dir)]), changeCommand("up", [name])];
    case "reload": {
      const signal = resource.type === "service" ? resource.reloadSignal : undefined;
      const flag = signal && signalFlag(signal);
      if (!flag) throw errors.cannotReload(change.key, "s6");
      return [svc(flag, dir)];
    }
  }
}

function svc(option: string, dir: string): Command {
  return { argv: ["s6-svc", option, "--", dir] };
}
