import { spawn } from "node:child_process";

/** What a finished command printed and how it exited. */
export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunCommandOptions {
  /** Exit codes that count as success; others throw. Default `[0]`; `"any"` never throws. */
  okCodes?: readonly number[] | "any";
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
}

/** Runs a program on the machine running the tests (docker, debootstrap…) and collects its output. */
export function runCommand(argv: readonly string[], options: RunCommandOptions = {}): Promise<CommandResult> {
  const [program, ...args] = argv;
  if (program === undefined) throw new Error("runCommand needs a program");
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env: options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => reject(new Error(`cannot run ${program}: ${error.message}`, { cause: error })));
    child.on("close", (code, signal) => {
      const result = {
        exitCode: code ?? 128,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      };
      const ok = options.okCodes ?? [0];
      if (ok !== "any" && !ok.includes(result.exitCode)) {
        const how = signal ? `was killed by ${signal}` : `exited ${result.exitCode}`;
        reject(new Error(`\`${argv.join(" ")}\` ${how}\n${lastLines(result.stderr || result.stdout, 30)}`));
        return;
      }
      resolve(result);
    });
    // A program that exits without reading its input (docker, ssh failing fast) closes the pipe:
    // the write's EPIPE is not a failure of ours; the exit code above says how the program did.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

/** The last `count` lines of a command's output, for error messages. */
export function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}
