import { posix } from "node:path";
import type { HostFiles, Scope } from "@tend/core/contract";
import { serviceDirs } from "./service-dirs.js";

/** A service description found on the host: the first match in dinit's search order. */
export interface FoundDescription {
  /** Where dinit finds it (a link's own path, not its target). */
  path: string;
  text: string;
}

/** Distros link descriptions into the service folders; dinit follows such links, so this does too. */
const MAX_LINKS = 8;

export async function findDescription(file: string, scope: Scope, files: HostFiles): Promise<FoundDescription | undefined> {
  for (const dir of serviceDirs(scope)) {
    const path = `${dir}/${file}`;
    if (!(await files.exists(path))) continue;
    const text = await readFollowing(path, files);
    if (text !== null) return { path, text };
  }
  return undefined;
}

async function readFollowing(path: string, files: HostFiles): Promise<string | null> {
  let current = path;
  for (let hop = 0; hop <= MAX_LINKS; hop += 1) {
    const text = await files.readFile(current);
    if (text !== null) return text;
    const target = await files.readLink(current);
    if (target === null) return null;
    current = posix.resolve(posix.dirname(current), target);
  }
  return null;
}
