import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ServiceSchema } from "@tend/core";
import { RecordingRunner, applyContext } from "@tend/testkit";
import { serviceLogs } from "./service-logs.js";

const fixture = (name: string) => readFile(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const web = ServiceSchema.parse({ type: "service", name: "web", exec: "/opt/web/bin/server" });

describe("serviceLogs", () => {
  it("gives s6-svstat's summary and the tail of the catch-all log", async () => {
    const runner = new RecordingRunner().on("s6-svstat -- /run/s6-rc/servicedirs/tend-web", { stdout: await fixture("svstat-human-exit3.txt") });
    const ctx = await applyContext({ init: "s6", runner });
    await mkdir(join(ctx.rootDir, "run/uncaught-logs"), { recursive: true });
    const log = Array.from({ length: 30 }, (_, i) => `@400000006b1045352304f81c line ${i + 1}`).join("\n");
    await writeFile(join(ctx.rootDir, "run/uncaught-logs/current"), `${log}\n`);
    const lines = await serviceLogs(web, ctx);
    expect(lines[0]).toBe("s6-svstat /run/s6-rc/servicedirs/tend-web: down (exitcode 3) 328 seconds, normally up, ready 328 seconds");
    expect(lines.slice(1)).toHaveLength(20);
    expect(lines.at(-1)).toBe("/run/uncaught-logs/current: @400000006b1045352304f81c line 30");
  });

  it("says why when no s6-supervise runs on the service", async () => {
    const runner = new RecordingRunner().on("s6-svstat", { exitCode: 1, stderr: await fixture("svstat-human-unsupervised.stderr.txt") });
    const ctx = await applyContext({ init: "s6", runner });
    expect(await serviceLogs(web, ctx)).toEqual([
      "s6-svstat /run/s6-rc/servicedirs/tend-web: s6-svstat: fatal: : unable to read status for /tmp/s6cap/nonexistent: s6-supervise not running",
    ]);
  });
});
