import type { InitCatalogue } from "../discovery/init-catalogue.js";
import { errors } from "../errors/catalogue.js";

/**
 * An init its provider binds to platforms (launchd: darwin) has none of its tools on another
 * platform's live host, so `--init launchd` on Linux is refused before any command runs, with
 * the ways that do work. Under `--root` it is planned and applied for an image, on any platform.
 */
export function checkInitPlatform(init: string, inits: InitCatalogue, platform: string = process.platform): void {
  const known = inits.get(init);
  const platforms = known?.detect?.platforms ?? [];
  if (platforms.length === 0 || platforms.includes(platform)) return;
  throw errors.usage(`--init ${init}: ${known!.displayName} runs only on ${platforms.join(" or ")}, and this host is ${platform}`, {
    hint: `Plan or apply for it into an image root with --root DIR, or run tend on a ${platforms[0]} host`,
  });
}
