// Runs a docs block's `$ tend …` commands the way a reader would, in a fresh folder holding the
// spec the document showed last, and compares what they print with what the document shows.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { blockCommands, REPO, type DocBlock } from "./doc-blocks.js";

const CLI = join(REPO, "packages/cli/dist/bin.js");
const ROOT_COMMANDS = new Set(["plan", "apply", "observe"]);

export interface CommandRun {
  command: string;
  exitCode: number;
  output: string;
}

/** The file name a spec block is written to: its first-line comment (`// tend.config.ts`), or the default for its language. */
export function specFileName(spec: DocBlock): string {
  const named = /^(?:\/\/|#)\s*(tend[\w.-]*\.(?:ts|mts|js|mjs|yaml))\s*$/m.exec(spec.text.split("\n")[0] ?? "");
  if (named) return named[1]!;
  return spec.lang === "yaml" ? "tend.yaml" : "tend.config.ts";
}

/** A folder holding the spec, and an image root with what a fresh install of each init has. */
export function prepareFolder(spec: DocBlock | undefined, options: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "tend-doc-"));
  if (spec) writeFileSync(join(dir, specFileName(spec)), spec.text);
  if (options.link) {
    // the spec's project has this package installed, as `npm install PACKAGE` beside the spec would
    const linked = join(REPO, options.link);
    const name = (JSON.parse(readFileSync(join(linked, "package.json"), "utf8")) as { name: string }).name;
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "doc-example", private: true, dependencies: { [name]: "*" } })}\n`);
    mkdirSync(dirname(join(dir, "node_modules", name)), { recursive: true });
    symlinkSync(linked, join(dir, "node_modules", name));
  }
  const root = join(dir, "root");
  for (const folder of ["etc/systemd/system", "etc/cron.d", "etc/runit/runsvdir/default", "etc/sv", "etc/init.d", "etc/runlevels/default", "etc/dinit.d", "etc/s6/sv", "usr/sbin", "Library/LaunchDaemons"]) {
    mkdirSync(join(root, folder), { recursive: true });
  }
  // an image has cron's daemon where its package put it; tend only checks that it is there
  writeFileSync(join(root, "usr/sbin/cron"), "#!/bin/sh\n");
  chmodSync(join(root, "usr/sbin/cron"), 0o755);
  const bin = join(dir, ".bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "tend"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`);
  chmodSync(join(bin, "tend"), 0o755);
  return dir;
}

/** The command as the test runs it: `sudo` dropped (the tests run as root), the block's init and image root added. */
export function commandToRun(command: string, options: Record<string, string>): string {
  let line = command.replace(/^sudo /, "");
  const words = line.split(/\s+/);
  if (words[0] === "tend" && options.init) {
    if (!words.includes("--init")) line += ` --init ${options.init}`;
    if (ROOT_COMMANDS.has(words[1] ?? "") && !words.includes("--root")) line += " --root ./root";
  }
  return line;
}

export function runDocCommands(block: DocBlock, spec: DocBlock | undefined, folder = prepareFolder(spec, block.options)): CommandRun[] {
  return blockCommands(block).map((command) => {
    const line = commandToRun(command, block.options);
    const script = block.options.host ? `hostname ${block.options.host} && ${line}` : line;
    const argv = block.options.host ? ["unshare", ...(process.getuid?.() === 0 ? [] : ["-r"]), "-u", "sh", "-c", script] : ["sh", "-c", script];
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${join(folder, ".bin")}:${process.env.PATH ?? ""}`, TERM: "dumb" };
    for (const name of ["FORCE_COLOR", "NO_COLOR", "CI"]) delete env[name];
    const run = spawnSync(argv[0]!, [...argv.slice(1)], { cwd: folder, env, encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });
    return { command, exitCode: run.status ?? -1, output: `${run.stdout}${run.stderr}` };
  });
}

/** What the block shows after each `$ ` line, in order. */
export function shownOutputs(block: DocBlock): string[] {
  const outputs: string[] = [];
  for (const line of block.text.replace(/\n$/, "").split("\n")) {
    if (line.startsWith("$ ")) outputs.push("");
    else if (outputs.length > 0) outputs[outputs.length - 1] += `${line}\n`;
  }
  return outputs;
}

/**
 * Whether output matches what the docs show: line for line, where a line that is just `…` stands
 * for any number of lines and `…` inside a line for any characters.
 */
export function matchesShown(output: string, shown: string): boolean {
  const actual = output.replace(/\n$/, "").split("\n");
  const expected = shown.replace(/\n$/, "").split("\n");
  if (shown === "") return output === "";
  const memo = new Map<string, boolean>();
  const match = (a: number, e: number): boolean => {
    const key = `${a},${e}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (e === expected.length) result = a === actual.length;
    else if (expected[e] === "…") result = match(a, e + 1) || (a < actual.length && match(a + 1, e));
    else result = a < actual.length && lineMatches(actual[a]!, expected[e]!) && match(a + 1, e + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

function lineMatches(actual: string, expected: string): boolean {
  if (!expected.includes("…")) return actual === expected;
  const pattern = expected.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${pattern}$`).test(actual);
}
