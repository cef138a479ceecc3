/** One command for the init. Every command tend runs goes through a {@link Runner}. */
export interface Command {
  /** Program and arguments; never a shell string. Put `--` before unit names. */
  argv: string[];
  /** Run as this user (uid/gid switched by the runner) instead of tend's own. */
  asUser?: { uid: number; gid: number };
  /** Extra environment, merged over a minimal one (`PATH`, `LC_ALL=C`). */
  env?: Record<string, string>;
  /** Written to stdin. */
  input?: string;
  /** Deadline; the whole process group is killed after it. Default 60 s. */
  timeoutMs?: number;
  /** Exit codes that count as success (default `[0]`); `"any"` never throws. */
  okCodes?: number[] | "any";
}

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs commands. Production uses ProcessRunner (detached, killing the process group on timeout); tests
 * use @tend/testkit's recording runner, which answers from a script and records every argv.
 * `run` throws a `TEND_COMMAND_FAILED` TendError when the exit code is not in `okCodes`.
 */
export interface Runner {
  run(command: Command): Promise<CommandResult>;
}
