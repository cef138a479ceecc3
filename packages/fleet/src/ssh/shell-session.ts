import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { TendError } from "@tend/core";
import { loadLibrary, type ShellLibrary } from "./shell-library.js";
import type { ShellResult } from "./ssh-connection.js";

/** What ssh exits with when the connection failed; a session that ends mid-command reports it. */
const LOST = 255;

/**
 * Whether `input` can travel as a here-document: text without NUL that is empty or ends with a
 * newline (a here-document always ends with one), and that no line of can end the document early.
 */
export function framable(input: string, delimiter: string): boolean {
  return !input.includes("\0") && (input === "" || input.endsWith("\n")) && !`\n${input}`.includes(`\n${delimiter}\n`);
}

/**
 * One long-lived POSIX sh on a host (an ssh session, or a local sh in tests) that runs commands one
 * after another, so that a command costs a write and a read instead of a new ssh client and a new
 * session on the host. Each command line runs in a subshell with its input as a here-document
 * (`/dev/null` when there is none), then the shell prints an end marker with the exit status on
 * stdout and one on stderr: the output is what came before the markers, byte for byte (the marker
 * starts with a newline of its own). Markers and delimiters carry a random token per command.
 * A command past its deadline ends the whole session (the caller starts another). A command may
 * ask for a library ({@link ShellLibrary}): the shell itself loads it before its first such command
 * and keeps it, so later commands' subshells have its functions without reading it again.
 */
export class ShellSession {
  private busy = false;
  private closed = false;
  private readonly token = randomBytes(6).toString("hex");
  private count = 0;
  private out = new Collected();
  private err = new Collected();
  private waiter: (() => void) | undefined;
  private exitCode: number | null | undefined;
  /** The libraries this shell has loaded, by name. */
  private readonly loaded = new Set<string>();

  constructor(
    private readonly child: ChildProcess,
    private readonly name: string,
  ) {
    child.stdout!.on("data", (chunk: Buffer) => this.received(this.out, chunk));
    child.stderr!.on("data", (chunk: Buffer) => this.received(this.err, chunk));
    child.stdin!.on("error", () => undefined);
    child.on("error", () => this.ended(127));
    child.on("close", (code) => this.ended(code));
  }

  /** Whether it can take a command now. */
  get idle(): boolean {
    return !this.busy && !this.closed;
  }

  get alive(): boolean {
    return !this.closed;
  }

  /** The here-document delimiter the next command would use (to check its input first). */
  nextDelimiter(): string {
    return `__tend_in_${this.token}_${this.count + 1}`;
  }

  run(line: string, input: string, timeoutMs: number, library?: ShellLibrary): Promise<ShellResult> {
    if (!this.idle) throw new Error("a shell session runs one command at a time");
    this.busy = true;
    const delimiter = this.nextDelimiter();
    this.count += 1;
    const end = `__tend_end_${this.token}_${this.count}`;
    // Built once per command: check runs on every chunk of output.
    const outEnd = new RegExp(`\n${end} (\\d+)\n$`);
    const errEnd = new RegExp(`\n${end}\n$`);
    const stdin = input === "" ? `( ${line}\n) </dev/null\n` : `( ${line}\n) <<'${delimiter}'\n${input}${delimiter}\n`;
    let load = "";
    if (library && !this.loaded.has(library.name)) {
      load = loadLibrary(library);
      this.loaded.add(library.name);
    }
    this.out = new Collected();
    this.err = new Collected();
    return new Promise<ShellResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        this.close(true);
        reject(new TendError("TEND_FLEET_CONNECTION", `${this.name}: no answer within ${timeoutMs / 1000} s`, { resource: this.name }));
      }, timeoutMs);
      const check = () => {
        const status = this.out.endsWith(outEnd);
        const errDone = this.err.endsWith(errEnd);
        if (status && errDone) {
          clearTimeout(timer);
          this.waiter = undefined;
          this.busy = false;
          resolve({ exitCode: Number(status.groups[0]), stdout: this.out.text(status.at), stderr: this.err.text(errDone.at) });
        } else if (this.closed) {
          clearTimeout(timer);
          this.waiter = undefined;
          // Worded as ssh words a lost connection (a line that starts with "Connection"), which is
          // how callers tell it from a command's own failure.
          const stderr = this.err.text();
          const lost = `Connection to ${this.name} lost: the session ended (exit ${this.exitCode ?? "by signal"})`;
          resolve({ exitCode: LOST, stdout: this.out.text(), stderr: stderr.trim() === "" ? lost : `${stderr.trimEnd()}\n${lost}` });
        }
      };
      this.waiter = check;
      this.child.stdin!.write(`${load}${stdin}printf '\\n%s %s\\n' '${end}' "$?"; printf '\\n%s\\n' '${end}' >&2\n`);
      check();
    });
  }

  /** Ends the session: its shell reads end of input and exits (or, `kill`, the client is killed). */
  close(kill = false): void {
    if (this.closed) return;
    this.closed = true;
    if (kill) this.child.kill("SIGKILL");
    else this.child.stdin!.end();
  }

  private received(into: Collected, chunk: Buffer): void {
    into.add(chunk);
    this.waiter?.();
  }

  private ended(code: number | null): void {
    this.exitCode = code;
    this.closed = true;
    this.waiter?.();
  }
}

/** One stream's bytes for one command; the end marker is looked for in the last bytes only. */
class Collected {
  private chunks: Buffer[] = [];
  private length = 0;
  private tail = "";

  add(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    this.tail = (this.tail + chunk.toString("latin1")).slice(-200);
  }

  /** Where the stream's end matches `pattern` (ASCII only): the byte offset of the match and its groups. */
  endsWith(pattern: RegExp): { at: number; groups: string[] } | undefined {
    const match = pattern.exec(this.tail);
    if (!match) return undefined;
    return { at: this.length - this.tail.length + match.index, groups: match.slice(1) };
  }

  /** The bytes before `end` (all of them by default), as UTF-8. */
  text(end = this.length): string {
    return Buffer.concat(this.chunks).subarray(0, end).toString("utf8");
  }
}
