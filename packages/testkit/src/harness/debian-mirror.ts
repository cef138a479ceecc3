import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAptSources, type AptSource } from "./parse-apt-sources.js";

/**
 * The Debian mirror debootstrap should use: `TEND_IT_MIRROR` when set, else the mirror apt on this
 * machine uses for `suite` (main component) — the one known to be reachable from here. Falls back
 * to a Debian archive (a `…/debian` URI) apt uses for another suite: mirrors carry every suite.
 */
export function debianMirror(suite: string, aptDir = "/etc/apt", env: NodeJS.ProcessEnv = process.env): string {
  if (env.TEND_IT_MIRROR) return env.TEND_IT_MIRROR;
  const sources = readAptSources(aptDir).filter(
    (source) => /^https?:\/\//.test(source.uri) && source.components.includes("main"),
  );
  const exact = sources.find((source) => source.suites.includes(suite));
  const archive = exact ?? sources.find((source) => /\/debian\/?$/.test(source.uri));
  if (archive === undefined) {
    throw new Error(
      `No Debian mirror for ${suite} in ${aptDir}/sources.list(.d); set TEND_IT_MIRROR to one this machine reaches`,
    );
  }
  return archive.uri;
}

function readAptSources(aptDir: string): AptSource[] {
  const files: Array<[string, "one-line" | "deb822"]> = [[join(aptDir, "sources.list"), "one-line"]];
  const listDir = join(aptDir, "sources.list.d");
  if (existsSync(listDir)) {
    for (const name of readdirSync(listDir).sort()) {
      if (name.endsWith(".list")) files.push([join(listDir, name), "one-line"]);
      if (name.endsWith(".sources")) files.push([join(listDir, name), "deb822"]);
    }
  }
  return files.filter(([path]) => existsSync(path)).flatMap(([path, format]) => parseAptSources(readFileSync(path, "utf8"), format));
}
