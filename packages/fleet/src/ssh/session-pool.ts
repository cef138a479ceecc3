import type { ChildProcess } from "node:child_process";
import { q, type ShellLibrary } from "./shell-library.js";
import { framable, ShellSession } from "./shell-session.js";
import type { ShellResult } from "./ssh-connection.js";

/** Sessions kept per host: core runs a plan's queries side by side, and sshd allows 10 per connection. */
export const SESSIONS_PER_HOST = 4;

/**
 * The long-lived shells of one host ({@link ShellSession}), opened as commands need them, at most
 * {@link SESSIONS_PER_HOST}; a command waits for a free one beyond that. A command whose input
 * cannot travel as a here-document resolves `undefined` (the caller runs it in a session of its own).
 */
export class SessionPool {
  private readonly sessions: ShellSession[] = [];
  /** Sessions handed to a command (taken synchronously, so two commands never share one). */
  private readonly inUse = new Set<ShellSession>();
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly open: () => ChildProcess,
    private readonly name: string,
    private readonly max = SESSIONS_PER_HOST,
  ) {}

  async run(line: string, input: string, timeoutMs: number, library?: ShellLibrary): Promise<ShellResult | undefined> {
    const session = await this.take();
    try {
      if (!framable(input, session.nextDelimiter())) return undefined;
      return await session.run(line, input, timeoutMs, library);
    } finally {
      this.inUse.delete(session);
      this.queue.shift()?.();
    }
  }

  /**
   * Runs a script in a subshell of a session's shell, `library` loaded there first if that shell
   * has not loaded it yet: no shell to start, no library to send and read again. A script holding
   * a NUL byte (no shell reads one) resolves `undefined`. The script is evaluated: a syntax error
   * in it ends its subshell, not the session.
   */
  script(script: string, timeoutMs: number, library?: ShellLibrary): Promise<ShellResult | undefined> {
    if (script.includes("\0")) return Promise.resolve(undefined);
    return this.run(`eval ${q(script)}`, "", timeoutMs, library);
  }

  /** Ends every session (each shell reads end of input and exits). */
  close(): void {
    for (const session of this.sessions.splice(0)) session.close();
  }

  private async take(): Promise<ShellSession> {
    for (;;) {
      this.prune();
      const idle = this.sessions.find((s) => s.idle && !this.inUse.has(s));
      if (idle) {
        this.inUse.add(idle);
        return idle;
      }
      if (this.sessions.length < this.max) {
        const session = new ShellSession(this.open(), this.name);
        this.sessions.push(session);
        this.inUse.add(session);
        return session;
      }
      await new Promise<void>((resolve) => this.queue.push(resolve));
    }
  }

  /** Sessions that ended (a deadline, a lost connection) make room for new ones. */
  private prune(): void {
    for (let i = this.sessions.length - 1; i >= 0; i -= 1) if (!this.sessions[i]!.alive) this.sessions.splice(i, 1);
  }
}
