import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildImage } from "./build-image.js";
import { withBuildLock } from "./build-lock.js";
import { buildRootfs } from "./build-rootfs.js";
import type { HostImageName } from "./host-images.js";
import { imageRecipe, type ImageRecipe } from "./image-recipe.js";
import { runCommand } from "./run-command.js";

export interface EnsureImagesOptions {
  /** Progress lines (what is built, how long it took). Default: none. */
  log?: (line: string) => void;
  /** Image builds run side by side. Default 3: they mostly wait on the mirror. */
  jobs?: number;
}

/**
 * Makes sure the images of `names` exist, building what is missing: the debootstrap rootfs, the
 * shared base, then each image from its folder in packages/testkit/images (overlay images only
 * with their overlay; see overlayStatus). Every tag is a hash of what the image is made from, so an
 * image that exists is up to date and a second run only checks tags. Returns each name's tag.
 */
export async function ensureImages(
  names: readonly HostImageName[],
  options: EnsureImagesOptions = {},
): Promise<Partial<Record<HostImageName, string>>> {
  const log = options.log ?? (() => {});
  const recipes = names.map((name) => imageRecipe(name));
  const tags = Object.fromEntries(names.map((name, i) => [name, recipes[i]!.tag]));
  const present = await existingTags();
  if (recipes.every((recipe) => present.has(recipe.tag))) return tags;
  await withBuildLock(async () => {
    const existing = await existingTags();
    const slots = new Slots(options.jobs ?? 3);
    const building = new Map<string, Promise<void>>();
    const ensure = (recipe: ImageRecipe): Promise<void> => {
      let promise = building.get(recipe.tag);
      if (promise === undefined) {
        promise = existing.has(recipe.tag) ? Promise.resolve() : build(recipe);
        building.set(recipe.tag, promise);
      }
      return promise;
    };
    const build = async (recipe: ImageRecipe): Promise<void> => {
      if (recipe.parent !== undefined) await ensure(recipe.parent);
      await slots.run(async () => {
        const started = Date.now();
        log(`building ${recipe.tag}`);
        if (recipe.image === "rootfs") await buildRootfs(recipe.tag, log);
        else await buildImage(recipe, join(tmpdir(), `tend-it-build-${recipe.image}.log`));
        log(`built ${recipe.tag} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      });
    };
    // Let every build finish before the lock is released, then report each failure once.
    const settled = await Promise.allSettled(recipes.map(ensure));
    const failures = new Set(
      settled.flatMap((result) => (result.status === "rejected" ? [messageOf(result.reason)] : [])),
    );
    if (failures.size > 0) throw new Error([...failures].join("\n\n"));
  }, log);
  return tags;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function existingTags(): Promise<Set<string>> {
  const listing = await runCommand(["docker", "image", "ls", "--format", "{{.Repository}}:{{.Tag}}", "--filter", "reference=tend-it-*"]);
  return new Set(listing.stdout.split("\n").filter(Boolean));
}

/** At most `size` builds at once. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  constructor(size: number) {
    this.free = size;
  }
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
