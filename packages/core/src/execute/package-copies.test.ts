import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalHostFiles } from "../files/host-files.js";
import type { PlanEntry } from "../plan/plan-types.js";
import type { Resource } from "../model/resource-schema.js";
import { takeOverPackageCopies } from "./package-copies.js";

const fileEntry = (name: string, path: string, requires: string[]): PlanEntry => {
  const resource = { type: "file", name, path, content: "from = tend\n", requires } as Resource;
  return {
    key: `file:${name}`,
    action: "add",
    resource,
    provider: "core",
    ops: [],
    reasons: [],
    refusals: [],
    writes: [{ artifact: { path, content: "from = tend\n" }, content: "from = tend\n", current: null, why: "new" }],
  } as unknown as PlanEntry;
};

describe("takeOverPackageCopies", () => {
  it("takes over, with its bytes for the backup, the copy a package this apply installed put at a File's path; nothing else", async () => {
    const root = await mkdtemp(join(tmpdir(), "tend-package-copies-"));
    await mkdir(join(root, "etc/app"), { recursive: true });
    await writeFile(join(root, "etc/app/app.conf"), "from = package\n");
    await writeFile(join(root, "etc/app/other.conf"), "someone's\n");
    const files = new LocalHostFiles(root, { kind: "system" });
    const ours = fileEntry("conf", "/etc/app/app.conf", ["Package[app]"]);
    const unrelated = fileEntry("other", "/etc/app/other.conf", ["Package[elsewhere]"]);
    const absent = fileEntry("absent", "/etc/app/absent.conf", ["Package[app]"]);
    await takeOverPackageCopies(files, [ours, unrelated, absent], new Set(["package:app"]));
    expect(ours.writes[0]).toMatchObject({ current: "from = package\n", why: "adopted", installedBy: "app" });
    // Not this apply's package: left to fail as a file that appeared meanwhile.
    expect(unrelated.writes[0]).toMatchObject({ current: null, why: "new" });
    expect(unrelated.writes[0]!.installedBy).toBeUndefined();
    expect(absent.writes[0]).toMatchObject({ current: null, why: "new" });
  });
});
