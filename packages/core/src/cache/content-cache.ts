import { createHash, randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";

/** Entries kept per kind; the least recently used beyond it go when a new one is written. */
const KEEP = 32;

/**
 * What tend worked out once and can reuse while its inputs stay the same: a spec already parsed
 * and validated, a TypeScript spec already transpiled. Each entry is named by a hash of
 * everything it was derived from, so a changed input simply misses.
 *
 * The folder is the process's own cache folder, never one beside the spec (`TEND_CACHE_DIR`
 * names another; empty turns the cache off). tend trusts an entry only in a folder that is its
 * own: owned by the running user, writable by no one else, in folders no one else can change
 * (an entry says what root applies, and a TypeScript spec's kept code runs); otherwise it works
 * without one.
 * Entries are written to a temp file and renamed into place, so two runs racing each read a
 * whole entry or none; an entry that does not parse, or names another key, is a miss.
 */
export class ContentCache {
  private constructor(readonly dir: string) {}

  /** The running user's cache, or undefined when there is none tend may trust. */
  static open(env: Record<string, string | undefined> = process.env): ContentCache | undefined {
    const dir = cacheDir(env);
    if (!dir || !ownFolder(dir)) return undefined;
    const real = unreplaceable(dir);
    return real === undefined ? undefined : new ContentCache(real);
  }

  /**
   * A folder of the cache for a tool that keeps its own entries (jiti's transpiled modules, each
   * checked against a hash of its source when read), or undefined when it is not one tend trusts.
   */
  folder(kind: string): string | undefined {
    const folder = join(this.dir, kind);
    return ownFolder(folder) ? folder : undefined;
  }

  /** The entry for `key` of `kind`, or undefined. */
  read<T>(kind: string, key: string): T | undefined {
    const path = join(this.dir, kind, `${key}.json`);
    let entry: { key?: unknown; value?: T };
    try {
      entry = JSON.parse(readFileSync(path, "utf8")) as { key?: unknown; value?: T };
    } catch {
      return undefined;
    }
    if (entry?.key !== key) return undefined;
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      // pruned meanwhile: the value read is still good
    }
    return entry.value;
  }

  /** Stores `value` (JSON) under `key`; a cache that cannot be written is no error. */
  write(kind: string, key: string, value: unknown): void {
    const folder = join(this.dir, kind);
    if (!ownFolder(folder)) return;
    const temp = join(folder, `.${key}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    try {
      writeFileSync(temp, JSON.stringify({ key, value }), { flag: "wx", mode: 0o600 });
      renameSync(temp, join(folder, `${key}.json`));
    } catch {
      try {
        unlinkSync(temp);
      } catch {
        // never made
      }
      return;
    }
    prune(folder);
  }
}

/** A cache key: the hash of every input, in order. */
export function cacheKey(...parts: string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex");
}

/** `TEND_CACHE_DIR`, else root's `/var/cache/tend`, else `$XDG_CACHE_HOME/tend` or `~/.cache/tend`. */
export function cacheDir(env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.TEND_CACHE_DIR !== undefined) return env.TEND_CACHE_DIR === "" || !isAbsolute(env.TEND_CACHE_DIR) ? undefined : env.TEND_CACHE_DIR;
  if (process.geteuid?.() === 0) return "/var/cache/tend";
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, "tend");
  const home = env.HOME || homedir();
  return home && isAbsolute(home) ? join(home, ".cache", "tend") : undefined;
}

/** Makes the folder when missing; true when it is a real folder of the running user that no one else can write. */
function ownFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = lstatSync(dir);
    const uid = process.geteuid?.();
    return info.isDirectory() && (uid === undefined || info.uid === uid) && (info.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * The folder's real path, when no one but the running user and root can replace it: every
 * folder above it is theirs and writable by no one else, unless sticky (as /tmp is: there, others
 * cannot rename what is not theirs). Else undefined: whoever can write a folder above it could
 * move it away and put a folder of their own, with their entries, in its place. The cache is
 * used by its real path from then on, so a link above it cannot be repointed under tend.
 */
function unreplaceable(dir: string): string | undefined {
  const uid = process.geteuid?.();
  try {
    const real = realpathSync(dir);
    for (let folder = dirname(real); ; folder = dirname(folder)) {
      const info = lstatSync(folder);
      if (uid !== undefined && info.uid !== 0 && info.uid !== uid) return undefined;
      if ((info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0) return undefined;
      if (dirname(folder) === folder) return real;
    }
  } catch {
    return undefined;
  }
}

/** Keeps the KEEP most recently used entries, and drops temp files a killed run left. */
function prune(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  if (names.length <= KEEP) return;
  const entries: { path: string; used: number }[] = [];
  for (const name of names) {
    const path = join(folder, name);
    try {
      entries.push({ path, used: statSync(path).mtimeMs });
    } catch {
      // gone meanwhile
    }
  }
  entries.sort((a, b) => b.used - a.used);
  for (const { path } of entries.slice(KEEP)) {
    try {
      unlinkSync(path);
    } catch {
      // another run pruned it
    }
  }
}
