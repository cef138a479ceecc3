import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join, relative } from "node:path";
import { expect } from "vitest";

/**
 * Everything an apply into an image root leaves, comparable across runs: each path with its
 * kind, mode, owner and content hash (or link target), tend's state without its serial, and
 * the leftovers that must never survive (temp files, a journal).
 */
export interface RootSnapshot {
  tree: Record<string, string>;
  state: unknown;
  leftovers: string[];
}

export async function snapshotRoot(root: string): Promise<RootSnapshot> {
  const tree: Record<string, string> = {};
  const leftovers: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const rel = relative(root, path);
      if (name.includes(".tend-") || name === "state.journal") leftovers.push(rel);
      if (rel === "var/lib/tend/lock" || rel === "var/lib/tend/state.json") continue;
      const info = await lstat(path);
      const mode = (info.mode & 0o7777).toString(8);
      if (info.isSymbolicLink()) tree[rel] = `link -> ${await readlink(path)}`;
      else if (info.isDirectory()) {
        tree[rel] = `dir ${mode} ${info.uid}:${info.gid}`;
        await walk(path);
      } else tree[rel] = `file ${mode} ${info.uid}:${info.gid} ${createHash("sha256").update(await readFile(path)).digest("hex").slice(0, 16)}`;
    }
  };
  await walk(root);
  const text = await readFile(join(root, "var/lib/tend/state.json"), "utf8").catch(() => "{}");
  const { serial: _serial, ...state } = JSON.parse(text) as Record<string, unknown>;
  return { tree, state, leftovers };
}

/** That a root ends exactly as `golden`: no leftovers, the same files and the same state. */
export function expectSameRoot(after: RootSnapshot, golden: RootSnapshot, what: string): void {
  expect(after.leftovers, `${what}: leftovers`).toEqual([]);
  expect(after.tree, `${what}: files`).toEqual(golden.tree);
  expect(after.state, `${what}: state`).toEqual(golden.state);
}
