import { existsSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";

/**
 * How to install a package the way this tend was installed, for the hint of a missing provider:
 * a global npm, pnpm or yarn install, or a project's own (with that project's package manager,
 * told by its lock file).
 */
export function installCommandFor(cliDir: string): (pkg: string) => string {
  const real = realpathOr(cliDir);
  const parts = real.split(sep);
  if (real.includes(`${sep}pnpm${sep}global${sep}`)) return (pkg) => `pnpm add --global ${pkg}`;
  if (real.includes(`${sep}yarn${sep}global${sep}`)) return (pkg) => `yarn global add ${pkg}`;
  const modules = parts.lastIndexOf("node_modules");
  if (modules < 0) return (pkg) => `npm install --global ${pkg}`;
  // …/lib/node_modules/@tend/cli is npm's global prefix; anything else is a project's node_modules.
  if (parts[modules - 1] === "lib" && !existsSync(join(parts.slice(0, modules - 1).join(sep) || sep, "package.json"))) {
    return (pkg) => `npm install --global ${pkg}`;
  }
  let project = parts.slice(0, modules).join(sep) || sep;
  // pnpm's store sits inside the project's own node_modules: go up to the project.
  const store = project.indexOf(`${sep}node_modules${sep}.pnpm`);
  if (store >= 0) project = project.slice(0, store);
  if (existsSync(join(project, "pnpm-lock.yaml")) || real.includes(`${sep}.pnpm${sep}`)) return (pkg) => `pnpm add ${pkg} (in ${project})`;
  if (existsSync(join(project, "yarn.lock"))) return (pkg) => `yarn add ${pkg} (in ${project})`;
  return (pkg) => `npm install ${pkg} (in ${project})`;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

