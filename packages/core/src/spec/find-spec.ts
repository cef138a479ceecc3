import { existsSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { errors } from "../errors/catalogue.js";
import { STDIN_SPEC } from "./stdin-spec.js";

export const SPEC_NAMES = ["tend.config.ts", "tend.config.mts", "tend.config.js", "tend.config.mjs", "tend.yaml", "tend.yml"];

/**
 * The spec file: `-f PATH` (`-f -` or `-f /dev/stdin`: a YAML spec on standard input, STDIN_SPEC), else the first
 * of SPEC_NAMES in the current folder. The current folder
 * is asked for only when needed: `-f /abs/path` works from a folder deleted meanwhile.
 */
export function findSpec(explicit: string | undefined, cwd?: string): string {
  if (explicit === STDIN_SPEC || explicit === "/dev/stdin") return STDIN_SPEC;
  if (explicit) {
    const path = isAbsolute(explicit) ? resolve(explicit) : resolve(cwd ?? currentFolder(), explicit);
    if (missing(path)) throw errors.spec(`spec file ${path} does not exist`, { file: path });
    return path;
  }
  const here = cwd ?? currentFolder();
  for (const name of SPEC_NAMES) {
    const path = resolve(here, name);
    if (existsSync(path)) return path;
  }
  throw errors.spec(`no spec here: looked for ${SPEC_NAMES.join(", ")} in ${here}`, { hint: "Pass -f SPEC, or run tend in the folder that holds the spec" });
}

/** The process's current folder, or TEND_USAGE when it was deleted (or moved out of reach) since the shell entered it. */
function currentFolder(): string {
  try {
    return process.cwd();
  } catch (error) {
    throw errors.usage(`the current folder no longer exists (${(error as NodeJS.ErrnoException).code ?? "unknown"}): it was deleted or moved since the shell entered it`, {
      hint: "cd to a folder that exists, or pass the spec with an absolute path (-f /path/to/tend.yaml)",
    });
  }
}

/**
 * Whether nothing is at `path`. A path this user cannot look at is not missing: opening it says
 * so (see inputFileProblem).
 */
function missing(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== "EACCES" && code !== "EPERM";
  }
}
