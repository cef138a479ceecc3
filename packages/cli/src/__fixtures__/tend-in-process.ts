import { runCli } from "../run-cli.js";

/** Runs the CLI in this process, as version 9.9.9 without colour: its exit code, and stdout and stderr as one text. */
export async function tendInProcess(args: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const write = (text: string) => void (out += text);
  const code = await runCli(args, { stdout: { write }, stderr: { write }, env: { NO_COLOR: "1" } }, "9.9.9");
  return { code, out };
}
