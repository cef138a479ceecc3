import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";

const CLI = new URL("../dist/bin.js", import.meta.url).pathname;
/** Debian's libfaketime (.ci/run installs it): preloaded, it gives a process the wall clock a file names. */
const FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

/** Exit code, stderr and seconds taken by a child, from its start. */
function finished(child: ReturnType<typeof spawn>): Promise<{ code: number | null; stderr: string; seconds: number }> {
  const started = performance.now();
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stderr, seconds: (performance.now() - started) / 1000 })));
}

// The host's clock cannot be set here: libfaketime steps tend's wall clock (and its children's)
// while the monotonic clock runs on, as a real step (NTP, an admin's `date -s`) does.
describe("a wall-clock step while apply waits for the lock", () => {
  it.each([
    ["forward a year", "+365d"],
    ["back a year", "-365d"],
  ])("%s: the wait still lasts --lock-timeout", async (_, step) => {
    expect(existsSync(FAKETIME), `${FAKETIME} is missing: install Debian's libfaketime`).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), "tend-clock-"));
    const root = join(dir, "root");
    await mkdir(join(root, "var/lib/tend"), { recursive: true });
    await writeFile(join(dir, "tend.yaml"), "tend: v1alpha1\ntype: File\nname: a\npath: /etc/a\ncontent: x\n");
    const clock = join(dir, "clock");
    await writeFile(clock, "+0\n");
    // Another apply holds the lock for longer than the test runs.
    const holder = spawn("flock", [join(root, "var/lib/tend/lock"), "-c", "echo held; sleep 60"], { stdio: ["ignore", "pipe", "ignore"] });
    onTestFinished(() => void holder.kill("SIGKILL"));
    await new Promise((resolve) => holder.stdout.once("data", resolve));
    const env = { ...process.env, NO_COLOR: "1", LD_PRELOAD: FAKETIME, FAKETIME_TIMESTAMP_FILE: clock, FAKETIME_NO_CACHE: "1", FAKETIME_DONT_FAKE_MONOTONIC: "1" };
    const apply = finished(spawn(process.execPath, [CLI, "apply", "--init", "runit", "--root", root, "--lock-timeout", "3"], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] }));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await writeFile(clock, `${step}\n`);
    const result = await apply;
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^error TEND_LOCKED: another tend apply holds the lock /);
    // Forward, a wall-clock deadline would have passed at the step; back, it would be a year away.
    expect(result.seconds).toBeGreaterThan(2.8);
    expect(result.seconds).toBeLessThan(10);
  }, 30_000);
});
