import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * The benchmark's short mode, so every CI run measures tend against its floors (on the host and in
 * the systemd and runit test hosts) and fails when a ratio grew past twice its baseline in
 * bench/baseline.json. Absolute times never fail it.
 */
const REPO = fileURLToPath(new URL("../../", import.meta.url));

describe("benchmark, short mode", () => {
  it("keeps every ratio within twice its baseline", async () => {
    const run = await promisify(execFile)(process.execPath, ["bench/run.mjs", "--short", "--check"], {
      cwd: REPO,
      env: { ...process.env, TESTCONTAINERS_RYUK_DISABLED: "true" },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 480_000,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`bench/run.mjs --short --check failed:\n${error.stdout ?? ""}\n${error.stderr ?? error.message}`);
    });
    process.stdout.write(run.stdout);
    expect(run.stdout).toContain("no ratio more than 2x its baseline");
    expect(run.stdout).toMatch(/^systemd: no-op plan of 20 services/m);
    expect(run.stdout).toMatch(/^runit: fresh apply of 20 services/m);
  });
});
