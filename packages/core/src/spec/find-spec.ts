import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { errors } from "../errors/catalogue.js";

export const SPEC_NAMES = ["tend.config.ts", "tend.config.mts", "tend.config.js", "tend.config.mjs", "tend.yaml", "tend.yml"];

/** The spec file: `-f PATH`, else the first of SPEC_NAMES in the current folder. */
export function findSpec(explicit: string | undefined, cwd = process.cwd()): string {
  if (explicit) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path)) throw errors.spec(`spec file ${path} does not exist`, { file: path });
    return path;
  }
  for (const name of SPEC_NAMES) {
    const path = resolve(cwd, name);
    if (existsSync(path)) return path;
  }
  throw errors.spec(`no spec here: looked for ${SPEC_NAMES.join(", ")} in ${cwd}`, { hint: "Pass -f SPEC, or run tend in the folder that holds the spec" });
}
