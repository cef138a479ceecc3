import { randomBytes } from "node:crypto";

const MARK = ".tend-";

/** The temp file an atomic write of `base` starts with, beside it: `.<base>.tend-<pid>-<random>`. */
export function tempName(base: string): string {
  // One flat string (a template would keep its parts): a big batch keeps every temp name until it commits.
  return [tempPrefix(base), process.pid, "-", PROCESS_TAG, (counter++).toString(16)].join("");
}

/** Random per process, counted per file: unique without asking the kernel for randomness each time. */
const PROCESS_TAG = randomBytes(4).toString("hex");
let counter = 0;

/** What every temp file of `base` starts with (the name cut short to stay within NAME_MAX). */
export function tempPrefix(base: string): string {
  return `.${base.slice(0, 200)}${MARK}`;
}

/** The pid in a temp file's name, when `name` is one of `base`'s temp files. */
export function tempOwner(name: string, base: string): number | undefined {
  const prefix = tempPrefix(base);
  if (!name.startsWith(prefix)) return undefined;
  const match = /^([0-9]+)-[0-9a-f]+$/.exec(name.slice(prefix.length));
  return match ? Number(match[1]) : undefined;
}
