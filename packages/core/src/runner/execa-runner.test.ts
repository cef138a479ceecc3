import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExecaRunner } from "./execa-runner.js";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("ExecaRunner", () => {
  it("returns output and accepts listed exit codes", async () => {
    const runner = new ExecaRunner();
    expect(await runner.run({ argv: ["/bin/sh", "-c", "echo out; echo err >&2; exit 3"], okCodes: [3] })).toEqual({ exitCode: 3, stdout: "out\n", stderr: "err\n" });
    await expect(runner.run({ argv: ["/bin/sh", "-c", "echo nope >&2; exit 4"] })).rejects.toThrow("`/bin/sh -c echo nope >&2; exit 4` exited 4: nope");
  });

  it("kills the whole process group when the deadline passes, even a child that ignores TERM", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-runner-"));
    const pidFile = join(dir, "pid");
    const started = Date.now();
    await expect(
      new ExecaRunner().run({ argv: ["/bin/sh", "-c", `sh -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 1; done' & wait`], timeoutMs: 300 }),
    ).rejects.toThrow("timed out after 0.3 s; its process group was killed");
    const grandchild = Number(await readFile(pidFile, "utf8"));
    for (let i = 0; i < 80 && alive(grandchild); i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(alive(grandchild)).toBe(false);
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 15_000);

  it("names a program that is not installed, with the PATH it looked in, in one error", async () => {
    await expect(new ExecaRunner().run({ argv: ["tend-no-such-program", "--flag"] })).rejects.toMatchObject({
      code: "TEND_COMMAND_FAILED",
      message: "`tend-no-such-program --flag` did not finish: tend-no-such-program is not installed (no such program on PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)",
      hint: "Install tend-no-such-program on this machine: tend runs the init's own tools, under --root too",
    });
  });

  it("gives commands a minimal environment with LC_ALL=C", async () => {
    const { stdout } = await new ExecaRunner().run({ argv: ["/usr/bin/env"], env: { EXTRA: "1" } });
    expect(stdout.split("\n").filter(Boolean).sort()).toEqual(["EXTRA=1", "LC_ALL=C", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]);
  });
});
