import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { release } from "node:os";
import { pathInImage } from "./image-probe.js";

/** More than any os-release holds; a bigger file is not one. */
const MAX_OS_RELEASE = 64 * 1024;

/**
 * The facts a fleet run detects on each target (`distro`, `distroVersion`, `kernel`), read here
 * for a local run, so that a spec's `host.facts.distro` means the same on both. In an image root
 * they are the image's: its os-release, and no kernel (the image runs none yet).
 */
export function localFacts(root?: string): Record<string, string> {
  const facts: Record<string, string> = {};
  const osRelease = readOsRelease(root);
  if (osRelease.ID) facts.distro = osRelease.ID;
  if (osRelease.VERSION_ID) facts.distroVersion = osRelease.VERSION_ID;
  if (root === undefined) facts.kernel = release();
  return facts;
}

/** `/etc/os-release`, else `/usr/lib/os-release` (os-release(5)); {} when neither is a readable regular file. */
function readOsRelease(root?: string): Record<string, string> {
  for (const path of ["/etc/os-release", "/usr/lib/os-release"]) {
    const text = readSmallFile(root === undefined ? path : pathInImage(root, path));
    if (text !== undefined) return parseOsRelease(text);
  }
  return {};
}

/** A regular file's text, never blocking on a FIFO nor reading a device; undefined otherwise. */
function readSmallFile(path: string | undefined): string | undefined {
  // A device is never opened (opening some has effects of its own).
  if (path === undefined) return undefined;
  let fd: number;
  try {
    if (!statSync(path).isFile()) return undefined;
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_OS_RELEASE) return undefined;
    const buffer = Buffer.alloc(info.size);
    const read = readSync(fd, buffer, 0, info.size, 0);
    return buffer.toString("utf8", 0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * os-release's `KEY=value` lines: a value in double quotes with `\` escaping `"`, `\`, `$` and
 * `` ` ``, in single quotes as written, or bare; comments and other lines skipped.
 */
export function parseOsRelease(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^\s*([A-Z][A-Z0-9_]*)=(.*?)\s*$/.exec(line);
    if (!match) continue;
    const [, key, raw] = match as unknown as [string, string, string];
    let value = raw;
    if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) value = raw.slice(1, -1).replace(/\\(["\\$`])/g, "$1");
    else if (raw.startsWith("'") && raw.endsWith("'") && raw.length >= 2) value = raw.slice(1, -1);
    values[key] = value;
  }
  return values;
}
