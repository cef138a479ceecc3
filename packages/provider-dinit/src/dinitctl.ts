import type { Command, HostFiles, Scope } from "@tend/core/contract";

/** Builds `dinitctl` commands for a scope: the system dinit, or a user's own `dinit --user`. */
export interface Dinitctl {
  command(args: string[], options?: Pick<Command, "okCodes" | "timeoutMs">): Command;
}

/**
 * dinitctl takes no `--` (every argument starting with `-` is an option); service names never
 * start with `-` (the name rule), so none is needed.
 *
 * A user's dinit listens on `$XDG_RUNTIME_DIR/dinitctl`, or `~/.dinitctl` when it was started
 * without XDG_RUNTIME_DIR (dinit(8)). Which one depends on how the user's session started it, so
 * the socket that exists is passed explicitly, and the command runs as the user.
 */
export async function dinitctlFor(scope: Scope, files: HostFiles): Promise<Dinitctl> {
  if (scope.kind === "system") {
    return { command: (args, options) => ({ argv: ["dinitctl", ...args], ...options }) };
  }
  const runtime = `/run/user/${scope.uid}/dinitctl`;
  const socket = (await files.exists(runtime)) ? runtime : `${scope.home}/.dinitctl`;
  return {
    command: (args, options) => ({
      argv: ["dinitctl", "--user", "--socket-path", socket, ...args],
      asUser: { uid: scope.uid, gid: scope.gid },
      env: { HOME: scope.home },
      ...options,
    }),
  };
}
