import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { HostProbe } from "../discovery/init-catalogue.js";
import { resolveBeneath } from "../files/resolve-beneath.js";

/**
 * What init detection looks at in an image root: the program its PID 1 would be, the image's
 * `/sbin/init` with its links followed inside the root (`/lib/systemd/systemd`, `runit-init`,
 * `dinit`, `openrc-init`), then the inits' own programs and marker paths inside the root. The
 * platform is this machine's.
 */
export function imageProbe(root: string): HostProbe {
  const inside = (path: string) => {
    const real = pathInImage(root, path);
    return real !== undefined && existsSync(real) ? real : undefined;
  };
  return {
    platform: process.platform,
    image: true,
    pid1: () => {
      const init = inside("/sbin/init");
      return init ? basename(init) : "";
    },
    exists: (path) => inside(path) !== undefined,
  };
}

/**
 * Where a path of an image root is on this machine, its links followed inside the root as the
 * image's own processes would follow them; undefined when the walk fails (a link loop).
 */
export function pathInImage(root: string, path: string): string | undefined {
  try {
    return resolveBeneath(root, path, true);
  } catch {
    return undefined;
  }
}
