import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashTree } from "./hash-tree.js";

const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tree(): string {
  const dir = mkdtempSync(join(tmpdir(), "tend-hash-"));
  made.push(dir);
  mkdirSync(join(dir, "sv"));
  writeFileSync(join(dir, "Dockerfile"), "FROM x\n");
  writeFileSync(join(dir, "sv", "run"), "#!/bin/sh\n", { mode: 0o755 });
  symlinkSync("run", join(dir, "sv", "link"));
  return dir;
}

describe("hashTree", () => {
  it("is the same for the same content in another place", () => {
    expect(hashTree(tree())).toBe(hashTree(tree()));
  });

  it.each([
    ["a file's content", (dir: string) => writeFileSync(join(dir, "Dockerfile"), "FROM y\n")],
    ["a file's executable bit", (dir: string) => chmodSync(join(dir, "sv", "run"), 0o644)],
    ["a new empty folder", (dir: string) => mkdirSync(join(dir, "empty"))],
    ["a renamed file", (dir: string) => (rmSync(join(dir, "Dockerfile")), writeFileSync(join(dir, "Dockerfile2"), "FROM x\n"))],
    ["a link's target", (dir: string) => (rmSync(join(dir, "sv", "link")), symlinkSync("Dockerfile", join(dir, "sv", "link")))],
  ])("changes with %s", (_what, change) => {
    const dir = tree();
    const before = hashTree(dir);
    change(dir);
    expect(hashTree(dir)).not.toBe(before);
  });

  it("ignores permission bits git does not keep", () => {
    const dir = tree();
    const before = hashTree(dir);
    chmodSync(join(dir, "Dockerfile"), 0o664);
    chmodSync(join(dir, "sv", "run"), 0o775);
    expect(hashTree(dir)).toBe(before);
  });
});
