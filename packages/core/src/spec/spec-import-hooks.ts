// Node's module hooks for a module spec loaded as root (registered by spec-import-guard.ts): while
// a spec loads or builds, an ES module Node itself loads for it must pass the rule its file
// passed. Runs in Node's hooks thread; bundled alone.
import { fileURLToPath } from "node:url";
import { changeableFile } from "../files/root-trust.js";

let owners: readonly number[] = [0];
/** How many windows the main thread has open (spec-import-guard.ts). */
let active: Int32Array | undefined;

export function initialize(data: { owners: number[]; active: Int32Array }): void {
  owners = data.owners;
  active = data.active;
}

export async function load(url: string, context: unknown, nextLoad: (url: string, context: unknown) => Promise<unknown>): Promise<unknown> {
  if (active && Atomics.load(active, 0) > 0 && url.startsWith("file:")) {
    const file = fileURLToPath(url);
    const why = changeableFile(file, owners);
    if (why) throw new Error(`refusing to load ${file} as root: ${why}`);
  }
  return nextLoad(url, context);
}
