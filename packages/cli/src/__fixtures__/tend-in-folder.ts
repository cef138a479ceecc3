import { runCli } from "../run-cli.js";

/** Runs the CLI in this process from folder `cwd` (or here), as version 9.9.9 without colour: its exit code, stdout and stderr. */
export async function tendInFolder(argv: string[], cwd?: string): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const previous = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const code = await runCli(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env: { NO_COLOR: "1" } }, "9.9.9");
    return { code, out, err };
  } finally {
    process.chdir(previous);
  }
}
