import type { ApplyContext } from "@tend/core/contract";
import { endGroupCommand, readProcessGroup } from "./process-group.js";
import { rcService } from "./rc-commands.js";
import { backgroundPidfile, type Supervision } from "./supervision.js";

/**
 * Stops a tend service the way `supervision` keeps it, without its script: for a process the
 * script on disk does not describe (see liveSupervision), which openrc-run's stop, going by that
 * script, would miss. The rest of its process group is ended as the old script's stop_post would
 * have, and OpenRC's record reset (`zap`), so the next start is the new script's.
 */
export async function stopKeptBy(supervision: Supervision, script: string, ctx: ApplyContext): Promise<void> {
  const group = await readProcessGroup(ctx.files, script, supervision);
  if (supervision === "supervise-daemon") {
    await ctx.run.run({ argv: ["supervise-daemon", script, "--stop"], env: { RC_SVCNAME: script } });
  } else {
    await ctx.run.run({ argv: ["start-stop-daemon", "--stop", "--oknodo", "--retry", "TERM/5/KILL/5", "--pidfile", backgroundPidfile(script)] });
  }
  if (group !== undefined) await ctx.run.run({ argv: endGroupCommand(group) });
  await ctx.run.run({ argv: rcService(script, "zap") });
}
