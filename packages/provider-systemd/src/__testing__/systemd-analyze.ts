import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** What `systemd-analyze verify` parsed out of one unit (its debug dump). */
export interface DumpedUnit {
  description?: string;
  environment: string[];
  user?: string;
  /** Each Exec*= command line, split back into words, `$$` already turned into `$`. */
  commands: Record<string, string[][]>;
}

export interface VerifyResult {
  exitCode: number;
  units: Map<string, DumpedUnit>;
  /** Messages about our files (parse warnings, missing executables), prefixed as systemd prints them. */
  messages: string[];
}

/**
 * Writes units into a temp folder and runs `SYSTEMD_LOG_LEVEL=debug systemd-analyze verify` on
 * them: systemd's own parser is the oracle for what a rendered unit means.
 */
export async function verifyUnits(files: Record<string, string>, options: { user?: boolean } = {}): Promise<VerifyResult> {
  const dir = await mkdtemp(join(tmpdir(), "tend-verify-"));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    const env = { ...process.env, SYSTEMD_LOG_LEVEL: "debug", XDG_RUNTIME_DIR: dir };
    const args = [...(options.user ? ["--user"] : []), "verify", "--man=no", ...Object.keys(files).map((name) => join(dir, name))];
    let output: string;
    let exitCode = 0;
    try {
      const result = await run("systemd-analyze", args, { env, maxBuffer: 64 * 1024 * 1024 });
      output = result.stdout + result.stderr;
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      exitCode = typeof failed.code === "number" ? failed.code : 1;
      output = (failed.stdout ?? "") + (failed.stderr ?? "");
    }
    const names = Object.keys(files);
    const messages = output
      .split("\n")
      .filter((line) => line.startsWith(`${dir}/`) || names.some((name) => line.startsWith(`${name}: `) && !/: (Creating|Trying|Installed|Enqueued) /.test(line)));
    return { exitCode, units: parseDump(output), messages };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function parseDump(output: string): Map<string, DumpedUnit> {
  const units = new Map<string, DumpedUnit>();
  let current: DumpedUnit | undefined;
  let command: string | undefined;
  for (const line of output.split("\n")) {
    const unit = /^\t-> Unit (.+):$/.exec(line);
    if (unit) {
      current = { environment: [], commands: {} };
      units.set(unit[1]!, current);
      continue;
    }
    if (!current) continue;
    const exec = /^\t\t-> (Exec\w+):$/.exec(line);
    if (exec) {
      command = exec[1]!;
      continue;
    }
    const field = /^\t\t(\w[\w ]*): (.*)$/.exec(line);
    if (field) {
      if (field[1] === "Description") current.description = field[2]!;
      if (field[1] === "Environment") current.environment.push(field[2]!);
      if (field[1] === "User") current.user = field[2]!;
      continue;
    }
    const commandLine = /^\t\t\tCommand Line: (.*)$/.exec(line);
    if (commandLine && command) {
      (current.commands[command] ??= []).push(splitDumpedCommandLine(commandLine[1]!).map((word) => word.replace(/\$\$/g, "$")));
    }
  }
  return units;
}

const ESCAPES: Record<string, string> = { t: "\t", n: "\n", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", s: " " };

/** Undoes systemd's quote_command_line(): words split on spaces, `"…"` with C escapes. */
export function splitDumpedCommandLine(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\") {
      const next = text[++i] ?? "";
      if (next === "x") {
        word = (word ?? "") + String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
        i += 2;
      } else {
        word = (word ?? "") + (ESCAPES[next] ?? next);
      }
    } else if (ch === '"') {
      quoted = !quoted;
      word ??= "";
    } else if (ch === " " && !quoted) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? "") + ch;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
