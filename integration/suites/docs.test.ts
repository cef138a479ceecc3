import { execFile, spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockCommands, docBlock, REPO } from "../../repo-checks/doc-blocks.js";

/**
 * The README's "Try it" command, run as a new user runs it: in a fresh copy of the repository
 * (the files git has, nothing built, no node_modules), so it must install, build and show tend
 * working on the bundled example by itself. A copy, because its build empties the dist folders
 * the other suites run.
 */

const runFile = promisify(execFile);

function run(command: string, cwd: string): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { cwd, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ exitCode: code ?? -1, output }));
  });
}

describe("the README's Try it", () => {
  let clone: string;

  beforeAll(async () => {
    clone = await mkdtemp(join(tmpdir(), "tend-it-demo-"));
    const { stdout } = await runFile("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 });
    const entries = stdout.split("\0").filter(Boolean);
    for (const entry of entries) {
      const present = await readdir(join(REPO, dirname(entry))).then((names) => names.includes(entry.split("/").at(-1)!), () => false);
      if (!present) continue; // deleted in the working tree, not yet committed
      await mkdir(join(clone, dirname(entry)), { recursive: true });
      await cp(join(REPO, entry), join(clone, entry), { verbatimSymlinks: true });
    }
  });

  afterAll(async () => {
    if (clone) await rm(clone, { recursive: true, force: true });
  });

  it("installs, builds and shows tend planning, applying and planning nothing on the example", async () => {
    const commands = blockCommands(docBlock("README.md", "demo"));
    expect(commands).toEqual(["npm run demo"]);
    const { exitCode, output } = await run(commands[0]!, clone);
    expect(exitCode, output).toBe(0);
    expect(output).toContain("$ tend render --init all -f examples/tend.config.ts");
    expect(output).toMatch(/\$ tend apply --init runit --root \S+ -f examples\/tend.config.ts\nhost \S+ \(runit\)\n/);
    expect(output).toContain("service:web: added, enabled");
    expect(output).toMatch(/# again: nothing to do\nhost \S+ \(runit\)\n {2}0 to add, 0 to change, 0 to remove\n/);
    expect(output).toMatch(/The image roots are in (\/tmp\/tend-demo\.\w+)/);
    const roots = /The image roots are in (\S+) /.exec(output)![1]!;
    expect((await readdir(join(roots, "runit/etc/sv"))).sort()).toEqual(["tend-web", "tend-worker"]);
    await rm(roots, { recursive: true, force: true });
  }, 900_000);
});
