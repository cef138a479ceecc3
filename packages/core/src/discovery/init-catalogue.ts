import { existsSync, readFileSync } from "node:fs";
import type { ResourceType } from "../model/resource-schema.js";
import type { FoundProvider, InitDeclaration } from "./provider-manifest.js";

/** One init as the installed providers declare it, with the package that declared it. */
export interface KnownInit extends InitDeclaration {
  name: string;
  displayName: string;
  declaredBy: string;
}

/** What detection looks at; tests give their own. */
export interface HostProbe {
  platform: string;
  /** PID 1's name, from /proc/1/comm ("" when unreadable). */
  pid1(): string;
  exists(path: string): boolean;
  /** An image root (`--root`): nothing runs in it yet, so an init's `imagePaths` tell it too. */
  image?: boolean;
}

export const LIVE_PROBE: HostProbe = {
  platform: process.platform,
  pid1: () => {
    try {
      return readFileSync("/proc/1/comm", "utf8").trim();
    } catch {
      return "";
    }
  },
  exists: (path) => existsSync(path),
};

/**
 * The inits tend knows on this machine: those the found provider packages declare, in the order
 * the packages were found (a package listed in the spec first, then the spec's project, then tend's
 * install), the first declaration of a name winning.
 */
export class InitCatalogue {
  private readonly inits = new Map<string, KnownInit>();

  constructor(found: FoundProvider[]) {
    for (const provider of found) {
      for (const [name, declaration] of Object.entries(provider.manifest.declares)) {
        if (this.inits.has(name)) continue;
        this.inits.set(name, { ...declaration, name, displayName: declaration.displayName ?? name, declaredBy: provider.packageName });
      }
    }
  }

  get names(): string[] {
    return [...this.inits.keys()];
  }

  get(name: string): KnownInit | undefined {
    return this.inits.get(name);
  }

  /** How messages name an init (`OpenRC`); the name itself when nothing declares it. */
  displayName(name: string): string {
    return this.inits.get(name)?.displayName ?? name;
  }

  /** Whether the init runs `type` by itself (else a fallback provider serves it). */
  runsNatively(name: string, type: ResourceType): boolean {
    return this.inits.get(name)?.native.includes(type) ?? false;
  }

  /**
   * The init this host runs: one whose platform matches, then one whose PID 1 name matches, then
   * (in an image root) one whose program the image holds, then one whose marker path exists.
   * Undefined when no declared init matches.
   */
  detect(probe: HostProbe = LIVE_PROBE): string | undefined {
    const all = [...this.inits.values()];
    const byPlatform = all.find((i) => i.detect?.platforms?.includes(probe.platform));
    if (byPlatform) return byPlatform.name;
    const pid1 = probe.pid1();
    const byPid1 = pid1 ? all.find((i) => i.detect?.pid1?.includes(pid1)) : undefined;
    if (byPid1) return byPid1.name;
    const byImage = probe.image ? all.find((i) => i.detect?.imagePaths?.some((path) => probe.exists(path))) : undefined;
    if (byImage) return byImage.name;
    return all.find((i) => i.detect?.paths?.some((path) => probe.exists(path)))?.name;
  }
}
