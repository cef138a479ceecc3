import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OutputFiles } from "./output-files.js";

const CORE = new URL("../../dist/index.js", import.meta.url).href;

describe("OutputFiles", () => {
  it("holds what a command writes to either, and reads it back whole", async () => {
    const files = new OutputFiles();
    try {
      expect(files.size()).toBe(0);
      const child = spawn("/bin/sh", ["-c", "printf out; printf err >&2"], { stdio: ["ignore", files.out, files.err] });
      await new Promise((resolve) => child.once("exit", resolve));
      expect(files.size()).toBe(6);
      expect(files.read()).toEqual({ stdout: "out", stderr: "err" });
    } finally {
      files.close();
    }
  });

  it("leaves no name in TMPDIR, not even for a tend killed at its first unlink or rmdir while it runs a command under the lock", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-output-test-"));
    const temp = join(dir, "tmp");
    const lock = join(dir, "lock");
    await writeFile(lock, "");
    await mkdir(temp);
    // Under a lock every command starts through the gate, with its output in OutputFiles.
    const script = `import { ScopeLock, ProcessRunner } from ${JSON.stringify(CORE)}; await new ScopeLock(${JSON.stringify(lock)}).acquire(); ` +
      `const { stdout } = await new ProcessRunner().run({ argv: ["/bin/echo", "ran"] }); process.stdout.write(stdout);`;
    const strace = ["-f", "-qq", "-e", "trace=unlink,unlinkat,rmdir", "-e", "inject=unlink,unlinkat,rmdir:signal=SIGKILL", "-o", "/dev/null"];
    const child = spawn("strace", [...strace, process.execPath, "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, TMPDIR: temp } });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => child.once("exit", resolve));
    expect(out).toBe("ran\n");
    expect(await readdir(temp)).toEqual([]);
  });
});
