import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { debianMirror } from "./debian-mirror.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/apt/", import.meta.url));
const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** An /etc/apt with the given sources.list.d files (fixture names) and sources.list text. */
function aptDir(files: string[], sourcesList?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "tend-apt-"));
  made.push(dir);
  mkdirSync(join(dir, "sources.list.d"));
  for (const file of files) copyFileSync(join(FIXTURES, file), join(dir, "sources.list.d", file));
  if (sourcesList !== undefined) writeFileSync(join(dir, "sources.list"), sourcesList);
  return dir;
}

describe("debianMirror", () => {
  it("picks the mirror apt uses for bookworm here, past the non-Debian sources", () => {
    const dir = aptDir(["google-cloud-sdk.list", "nodesource.sources", "debian.sources"]);
    expect(debianMirror("bookworm", dir, {})).toBe("http://mirror.example/debian");
  });

  it("prefers TEND_IT_MIRROR", () => {
    const dir = aptDir(["debian.sources"]);
    expect(debianMirror("bookworm", dir, { TEND_IT_MIRROR: "http://mirror.local/debian" })).toBe("http://mirror.local/debian");
  });

  it("reads a one-line sources.list", () => {
    const dir = aptDir([], "deb http://de.mirror.example/debian bookworm main\n");
    expect(debianMirror("bookworm", dir, {})).toBe("http://de.mirror.example/debian");
  });

  it("falls back to a Debian archive apt uses for another suite", () => {
    const dir = aptDir(["nodesource.sources"], "deb http://fr.mirror.example/debian trixie main\n");
    expect(debianMirror("bookworm", dir, {})).toBe("http://fr.mirror.example/debian");
  });

  it("says what to set when apt knows no Debian mirror", () => {
    const dir = aptDir(["nodesource.sources", "google-cloud-sdk.list"]);
    expect(() => debianMirror("bookworm", dir, {})).toThrow(/No Debian mirror for bookworm .*set TEND_IT_MIRROR/);
  });
});
