import { mkdtemp, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectInit, parseInit } from "./detect-init.js";

describe("detectInit", () => {
  it.each([
    ["systemd", "systemd"],
    ["runit", "runit"],
    ["runsvdir", "runit"],
    ["s6-svscan", "s6"],
    ["dinit", "dinit"],
  ])("reads PID 1 %s as %s", async (comm, init) => {
    const dir = await mkdtemp(join(tmpdir(), "tend-init-"));
    await writeFile(join(dir, "comm"), `${comm}\n`);
    expect(detectInit("linux", join(dir, "comm"), join(dir, "no-openrc"))).toBe(init);
  });

  it("recognises OpenRC by /run/openrc and macOS as launchd", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-init-"));
    await writeFile(join(dir, "comm"), "init\n");
    await mkdir(join(dir, "openrc"));
    expect(detectInit("linux", join(dir, "comm"), join(dir, "openrc"))).toBe("openrc");
    expect(detectInit("linux", join(dir, "comm"), join(dir, "none"))).toBeUndefined();
    expect(detectInit("darwin")).toBe("launchd");
  });

  it("takes --init in any case and refuses unknown ones", () => {
    expect(parseInit("OpenRC")).toBe("openrc");
    expect(() => parseInit("upstart")).toThrow("unknown init `upstart`");
  });
});
