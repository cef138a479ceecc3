import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyContext } from "@tend/testkit";
import { checkS6Host } from "./check-host.js";

describe("checkS6Host", () => {
  it("passes on a host where s6-rc runs and current is a link", async () => {
    const ctx = await applyContext({ init: "s6" });
    await mkdir(join(ctx.rootDir, "run/s6-rc"), { recursive: true });
    await mkdir(join(ctx.rootDir, "etc/s6/db/tend-g1-a"), { recursive: true });
    await symlink("tend-g1-a", join(ctx.rootDir, "etc/s6/db/current"));
    expect(await checkS6Host(ctx)).toEqual([]);
  });

  it("fails the plan when s6-rc has no live state", async () => {
    const ctx = await applyContext({ init: "s6" });
    const found = await checkS6Host(ctx);
    expect(found.map((e) => e.message)).toEqual(["s6-rc has no live state in /run/s6-rc: tend manages s6 services through s6-rc"]);
  });

  it("needs no live state offline (--root)", async () => {
    const ctx = await applyContext({ init: "s6", offline: true });
    expect(await checkS6Host(ctx)).toEqual([]);
  });

  it("refuses a current that is a directory, and a tend service that is not a bundle", async () => {
    const ctx = await applyContext({ init: "s6", offline: true });
    await mkdir(join(ctx.rootDir, "etc/s6/db/current"), { recursive: true });
    await mkdir(join(ctx.rootDir, "etc/s6/sv/tend"), { recursive: true });
    await writeFile(join(ctx.rootDir, "etc/s6/sv/tend/type"), "longrun\n");
    const found = await checkS6Host(ctx);
    expect(found.map((e) => e.code)).toEqual(["TEND_S6_BUNDLE", "TEND_S6_CURRENT"]);
    expect(found[0]!.message).toBe("/etc/s6/sv/tend is not a bundle (its type file says `longrun`), but tend keeps its services in the bundle `tend`");
  });
});
