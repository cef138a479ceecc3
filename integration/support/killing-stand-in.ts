import type { TestHost } from "@tend/testkit/harness";

/** A stand-in for one of the init's programs that kills the apply calling it, once. */
export interface KillingStandIn {
  /** The program tend runs (`rc-service`, `dinitctl`): the stand-in goes in /usr/local/sbin, first on the PATH tend gives its commands. */
  program: string;
  /** The real program's path, which the stand-in runs for every other call. */
  real: string;
  /** The argument of the call that kills the apply (`--stop`, `restart`, `reload`). */
  word: string;
  /**
   * After the kill, seconds until the stand-in carries the call out, as a command the kill left
   * running would; undefined: the call fails and nothing is done.
   */
  carryOnAfter?: number;
}

/**
 * Installs the stand-in: the first call with `word` among its arguments SIGKILLs the apply that
 * made it (its parent), then fails or carries on as `carryOnAfter` says; every other call passes
 * through to the real program. Resolves with what removes it again.
 */
export async function installKillingStandIn(host: TestHost, standIn: KillingStandIn): Promise<() => Promise<void>> {
  const after = standIn.carryOnAfter === undefined ? "exit 1" : `sleep ${standIn.carryOnAfter}; break`;
  const script = `#!/bin/sh\nfor a in "$@"; do\n  if [ "$a" = ${standIn.word} ] && mkdir /run/tend-it-killed 2>/dev/null; then kill -KILL "$PPID"; ${after}; fi\ndone\nexec ${standIn.real} "$@"\n`;
  await host.mustSh("rmdir /run/tend-it-killed 2>/dev/null; true");
  await host.writeFile(`/usr/local/sbin/${standIn.program}`, script, { mode: 0o755 });
  return async () => {
    await host.mustSh(`rm -f /usr/local/sbin/${standIn.program}; rmdir /run/tend-it-killed 2>/dev/null; true`);
  };
}

/**
 * Starts a watcher on `host` that SIGKILLs the tend apply running there once the shell test
 * `condition` holds (`[ -e /etc/sv/tend-x/down ]`), polling every 10 ms: a kill at a step of the
 * apply that runs no command of the init's.
 */
export async function killApplyWhen(host: TestHost, condition: string): Promise<void> {
  const watcher = `until ${condition}; do sleep 0.01; done; pkill -KILL -f "cli/dist/bin.js apply"`;
  await host.mustSh(`nohup sh -c '${watcher.replaceAll("'", "'\\''")}' >/dev/null 2>&1 &`);
}
