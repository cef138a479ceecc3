import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = new URL("..", import.meta.url).pathname;
const CHANGESET = join(REPO, "node_modules/.bin/changeset");
const PACKAGES = readdirSync(join(REPO, "packages"));

/** A copy of the workspace's manifests and changesets setup, as a git repository changesets can read. */
function workspaceCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "tend-release-"));
  cpSync(join(REPO, "pnpm-workspace.yaml"), join(dir, "pnpm-workspace.yaml"));
  cpSync(join(REPO, ".changeset/config.json"), join(dir, ".changeset/config.json"));
  const manifests = execFileSync("git", ["ls-files", "package.json", "*/package.json"], { cwd: REPO, encoding: "utf8" }).split("\n").filter(Boolean);
  for (const file of manifests) cpSync(join(REPO, file), join(dir, file));
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: dir });
  execFileSync("git", ["-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "base"], { cwd: dir });
  return dir;
}

describe("versioning with changesets", () => {
  it("releases a core minor without forcing a major (or any bump) of the providers that peer-depend on it", () => {
    const dir = workspaceCopy();
    try {
      writeFileSync(join(dir, ".changeset/core-feature.md"), `---\n"@tend/core": minor\n---\nA feature.\n`);
      execFileSync(CHANGESET, ["status", "--output", "status.json"], { cwd: dir, stdio: "pipe" });
      const status = JSON.parse(readFileSync(join(dir, "status.json"), "utf8")) as { releases: { name: string; type: string; newVersion: string }[] };
      const core = status.releases.find((r) => r.name === "@tend/core");
      expect(core?.type).toBe("minor");
      const providers = status.releases.filter((r) => r.name.startsWith("@tend/provider-") || r.name === "@tend/testkit");
      expect(providers.filter((r) => r.type === "major")).toEqual([]);
      execFileSync(CHANGESET, ["version"], { cwd: dir, stdio: "pipe" });
      const version = (pkg: string) => JSON.parse(readFileSync(join(dir, "packages", pkg, "package.json"), "utf8")) as { version: string; peerDependencies?: Record<string, string> };
      expect(version("core").version).toBe(core!.newVersion);
      for (const pkg of PACKAGES.filter((p) => p.startsWith("provider-"))) {
        expect(version(pkg).version, pkg).toBe(JSON.parse(readFileSync(join(REPO, "packages", pkg, "package.json"), "utf8")).version);
        expect(version(pkg).peerDependencies?.["@tend/core"], pkg).toMatch(/>=0\.1\.0 <1\.0\.0/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("every provider peer-depends on @tend/core with a range that spans core's minors", () => {
    for (const pkg of PACKAGES.filter((p) => p.startsWith("provider-"))) {
      const manifest = JSON.parse(readFileSync(join(REPO, "packages", pkg, "package.json"), "utf8")) as { peerDependencies?: Record<string, string> };
      expect(manifest.peerDependencies?.["@tend/core"], pkg).toBe("workspace:>=0.1.0 <1.0.0");
    }
  });
});
