import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveBeneath } from "./resolve-beneath.js";
import { isNormalHostPath } from "./host-path.js";

async function imageRoot() {
  const root = await mkdtemp(join(tmpdir(), "tend-rb-"));
  await mkdir(join(root, "etc"), { recursive: true });
  await mkdir(join(root, "run"), { recursive: true });
  await mkdir(join(root, "var"), { recursive: true });
  return root;
}

describe("resolveBeneath", () => {
  it("takes an absolute link relative to the root, as the init inside it would (Debian's /var/run -> /run)", async () => {
    const root = await imageRoot();
    await symlink("/run", join(root, "var/run"));
    expect(resolveBeneath(root, "/var/run/tend/lock")).toBe(join(root, "run/tend/lock"));
  });

  it("keeps a link to a folder outside the root inside the root", async () => {
    const root = await imageRoot();
    const outside = await mkdtemp(join(tmpdir(), "tend-outside-"));
    await symlink(outside, join(root, "etc/sv"));
    expect(resolveBeneath(root, "/etc/sv/tend-web/run")).toBe(join(root, outside, "tend-web/run"));
  });

  it("never climbs above the root through .. in a link", async () => {
    const root = await imageRoot();
    await symlink("../../../../../../../../etc", join(root, "etc/sv"));
    expect(resolveBeneath(root, "/etc/sv/x")).toBe(join(root, "etc/x"));
    await symlink("/../../..", join(root, "var/up"));
    expect(resolveBeneath(root, "/var/up/etc/passwd")).toBe(join(root, "etc/passwd"));
  });

  it("does not follow the last part unless asked", async () => {
    const root = await imageRoot();
    await symlink("/dev/null", join(root, "etc/tend-web.service"));
    expect(resolveBeneath(root, "/etc/tend-web.service")).toBe(join(root, "etc/tend-web.service"));
    expect(resolveBeneath(root, "/etc/tend-web.service", true)).toBe(join(root, "dev/null"));
  });

  it("refuses a loop of links with a clear error", async () => {
    const root = await imageRoot();
    await symlink("/etc/b", join(root, "etc/a"));
    await symlink("/etc/a", join(root, "etc/b"));
    expect(() => resolveBeneath(root, "/etc/a/x")).toThrow(/follows more than 40 symlinks/);
  });

  it("appends parts that do not exist yet, and records every folder and link it went through", async () => {
    const root = await imageRoot();
    await writeFile(join(root, "etc/file"), "");
    await symlink("/run", join(root, "var/run"));
    const visited: string[] = [];
    expect(resolveBeneath(root, "/var/run/new/deeper/x", false, visited)).toBe(join(root, "run/new/deeper/x"));
    expect(visited).toEqual([join(root, "var"), join(root, "var/run"), join(root, "run")]);
  });

  it("works on the live host with / as the root", () => {
    expect(resolveBeneath("/", "/etc/passwd")).toBe("/etc/passwd");
  });
});

describe("isNormalHostPath", () => {
  it.each([
    ["/etc/app.conf", true],
    ["/a/.hidden", true],
    ["//etc//app.conf", false],
    ["/etc/app.conf/", false],
    ["/etc/./app.conf", false],
    ["/etc/../app.conf", false],
    ["etc/app.conf", false],
  ])("%s: %s", (path, normal) => {
    expect(isNormalHostPath(path)).toBe(normal);
  });
});
