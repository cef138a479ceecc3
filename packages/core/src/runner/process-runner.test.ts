import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { watchCommands } from "./command-groups.js";
import { ProcessRunner } from "./process-runner.js";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Under a lock (a listener hears the running commands) each command is started through the gate:
// every promise of the runner holds both ways.
describe.each(["directly", "through the gate, under a lock"] as const)("ProcessRunner, started %s", (mode) => {
  beforeEach(() => {
    if (mode !== "directly") watchCommands(() => {});
  });
  afterEach(() => watchCommands(undefined));

  it("returns output and accepts listed exit codes", async () => {
    const runner = new ProcessRunner();
    expect(await runner.run({ argv: ["/bin/sh", "-c", "echo out; echo err >&2; exit 3"], okCodes: [3] })).toEqual({ exitCode: 3, stdout: "out\n", stderr: "err\n" });
    await expect(runner.run({ argv: ["/bin/sh", "-c", "echo nope >&2; exit 4"] })).rejects.toThrow("`/bin/sh -c echo nope >&2; exit 4` exited 4: nope");
  });

  it("kills the whole process group when the deadline passes, even a child that ignores TERM", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-runner-"));
    const pidFile = join(dir, "pid");
    const started = Date.now();
    await expect(
      new ProcessRunner().run({ argv: ["/bin/sh", "-c", `sh -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 1; done' & wait`], timeoutMs: 300 }),
    ).rejects.toThrow("timed out after 0.3 s; its process group was killed");
    const grandchild = Number(await readFile(pidFile, "utf8"));
    for (let i = 0; i < 80 && alive(grandchild); i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(alive(grandchild)).toBe(false);
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 15_000);

  it("names a program that is not installed, with the PATH it looked in, in one error", async () => {
    await expect(new ProcessRunner().run({ argv: ["tend-no-such-program", "--flag"] })).rejects.toMatchObject({
      code: "TEND_COMMAND_FAILED",
      message: "`tend-no-such-program --flag` did not finish: tend-no-such-program is not installed (no such program on PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)",
      hint: "Install tend-no-such-program on this machine: tend runs the init's own tools, under --root too",
    });
  });

  it("gives commands a minimal environment with LC_ALL=C", async () => {
    const { stdout } = await new ProcessRunner().run({ argv: ["/usr/bin/env"], env: { EXTRA: "1" } });
    expect(stdout.split("\n").filter(Boolean).sort()).toEqual(["EXTRA=1", "LC_ALL=C", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]);
  });

  it("writes the input, survives a command that never reads it, and returns a megabyte of output intact", async () => {
    const runner = new ProcessRunner();
    expect((await runner.run({ argv: ["/bin/sh", "-c", "tr a-z A-Z"], input: "hello\n" })).stdout).toBe("HELLO\n");
    expect((await runner.run({ argv: ["/bin/true"], input: "x".repeat(4 * 1024 * 1024) })).exitCode).toBe(0);
    const { stdout } = await runner.run({ argv: ["/bin/sh", "-c", "head -c 1048576 /dev/zero | tr '\\0' a"] });
    expect(stdout).toBe("a".repeat(1048576));
  });

  it("runs a command as another user, and says which signal killed one", async () => {
    const runner = new ProcessRunner();
    if (process.getuid?.() === 0) expect((await runner.run({ argv: ["/bin/sh", "-c", "id -u; id -g"], asUser: { uid: 65534, gid: 65534 } })).stdout).toBe("65534\n65534\n");
    await expect(runner.run({ argv: ["/bin/sh", "-c", "kill -KILL $$"] })).rejects.toThrow("did not finish: killed by SIGKILL");
  });

  it("runs the program as named, with the name it was given as argv[0]", async () => {
    const { stdout } = await new ProcessRunner().run({ argv: ["sh", "-c", 'echo "$0"'] });
    expect(stdout).toBe("sh\n");
  });
});

describe("ProcessRunner", () => {
  it("ends a command's group that still runs when tend exits", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-runner-"));
    const pidFile = join(dir, "pid");
    const runnerUrl = new URL("./process-runner.ts", import.meta.url).href;
    const script = `const loaded = await import(${JSON.stringify(runnerUrl)});\nconst { ProcessRunner } = loaded.default ?? loaded;\nnew ProcessRunner().run({ argv: ["/bin/sh", "-c", "echo $$ > ${pidFile}; exec sleep 60"] });\nsetTimeout(() => process.exit(3), 500);\n`;
    const exit = await new Promise<number | null>((resolve) => {
      // jiti's loader hooks (a dependency of core) let node import the TypeScript source.
      const hooks = new URL("../../node_modules/jiti/lib/jiti-register.mjs", import.meta.url).href;
      const child = spawn(process.execPath, ["--import", hooks, "--input-type=module", "-e", script], { stdio: "ignore" });
      child.on("close", resolve);
    });
    expect(exit).toBe(3);
    const sleeper = Number(await readFile(pidFile, "utf8"));
    for (let i = 0; i < 50 && alive(sleeper); i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(alive(sleeper)).toBe(false);
  });
});
