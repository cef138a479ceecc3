import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The tend checkout the harness mounts at /opt/tend: `TEND_REPO` when set, else the nearest folder
 * above this file holding pnpm-workspace.yaml (the monorepo this testkit was built in).
 */
export function repoRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TEND_REPO) return resolve(env.TEND_REPO);
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(folder, "pnpm-workspace.yaml"))) return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new Error("cannot find the tend repository above @tend/testkit: set TEND_REPO to the checkout to mount");
    folder = parent;
  }
}
