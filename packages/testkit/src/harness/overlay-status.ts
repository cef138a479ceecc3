import { accessSync, constants, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { HOST_IMAGE_SPECS, type HostImageName } from "./host-images.js";

/** Folders of an overlay where the harness looks for programs (merged onto / of the image). */
export const OVERLAY_BIN_FOLDERS = ["usr/local/sbin", "usr/local/bin", "usr/sbin", "usr/bin", "sbin", "bin"] as const;

export type OverlayStatus = { available: true; folder?: string } | { available: false; why: string };

/**
 * Whether the image `name` can be built here. Images of Debian packages always can. dinit and s6rc
 * need `TEND_IT_OVERLAY=DIR` with `DIR/<name>` holding their programs; otherwise `why` says exactly
 * what is missing, for a suite to skip with (see packages/testkit/images/README.md).
 */
export function overlayStatus(name: HostImageName, env: NodeJS.ProcessEnv = process.env): OverlayStatus {
  const programs = HOST_IMAGE_SPECS[name].overlayPrograms;
  if (programs === undefined) return { available: true };
  const root = env.TEND_IT_OVERLAY;
  const wanted = `a folder ${name}/ holding ${programs.join(", ")} in a bin folder such as usr/sbin (see packages/testkit/images/README.md)`;
  if (!root) return { available: false, why: `TEND_IT_OVERLAY is not set: the ${name} image needs ${wanted}` };
  const folder = join(root, name);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    return { available: false, why: `TEND_IT_OVERLAY=${root} has no ${name}/ folder: the ${name} image needs ${wanted}` };
  }
  const missing = programs.filter((program) => findProgram(folder, program) === undefined);
  if (missing.length > 0) {
    return {
      available: false,
      why: `${folder} lacks ${missing.join(", ")}: no executable of that name in ${OVERLAY_BIN_FOLDERS.join(", ")}`,
    };
  }
  return { available: true, folder };
}

function findProgram(folder: string, program: string): string | undefined {
  return OVERLAY_BIN_FOLDERS.map((bin) => join(folder, bin, program)).find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}
