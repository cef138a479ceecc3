import { TendError, type Command, type ReadContext } from "@tend/core/contract";
import { processUid } from "./process-uid.js";

/**
 * A `systemctl` command for the scope tend runs in:
 * - system: `systemctl …`, or `systemctl --root=DIR …` when applying into an image root;
 * - a user's manager, run as that user: `systemctl --user …`, with `XDG_RUNTIME_DIR` set (the
 *   runner starts commands with a minimal environment, and `--user` finds the manager's socket
 *   under it);
 * - a user's manager, run as root for that user: `systemctl --user -M <user>@ …`, which reaches
 *   the user's own manager (systemd 248 and later).
 * `--root` cannot reach user units (systemd refuses `--user` with `--root`): callers handle that
 * case without systemctl.
 */
export function systemctl(ctx: ReadContext, args: string[], options: Omit<Command, "argv"> = {}): Command {
  return { ...options, ...managerCommand(ctx, ["systemctl", ...managerFlags(ctx), ...args], options.env) };
}

/** The flags that point systemctl at this scope's manager. */
export function managerFlags(ctx: ReadContext): string[] {
  const scope = ctx.scope;
  if (scope.kind === "system") return ctx.root ? [`--root=${ctx.root}`] : [];
  if (ctx.root) {
    throw new TendError("TEND_SYSTEMD_OFFLINE_USER", "systemctl cannot reach user units under --root", {
      hint: "This is a bug in @tend/provider-systemd: user units under --root are handled without systemctl",
    });
  }
  return actsForAnotherUser(ctx) ? ["--user", "-M", `${scope.user}@`] : ["--user"];
}

/** True when tend runs as root for a user scope (so it must reach the user's manager by `-M`). */
export function actsForAnotherUser(ctx: ReadContext): boolean {
  const uid = processUid();
  return ctx.scope.kind === "user" && uid === 0 && ctx.scope.uid !== 0;
}

function managerCommand(ctx: ReadContext, argv: string[], env: Record<string, string> | undefined): Command {
  if (ctx.scope.kind === "user" && !actsForAnotherUser(ctx)) {
    return { argv, env: { XDG_RUNTIME_DIR: `/run/user/${ctx.scope.uid}`, ...env } };
  }
  return { argv, ...(env ? { env } : {}) };
}
