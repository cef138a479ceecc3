import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IMAGES_FOLDER, imageRecipe } from "./image-recipe.js";

const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function dinitOverlay(dinitctl: string): string {
  const root = mkdtempSync(join(tmpdir(), "tend-overlay-"));
  made.push(root);
  mkdirSync(join(root, "dinit", "usr", "sbin"), { recursive: true });
  writeFileSync(join(root, "dinit", "usr", "sbin", "dinit"), "binary", { mode: 0o755 });
  writeFileSync(join(root, "dinit", "usr", "sbin", "dinitctl"), dinitctl, { mode: 0o755 });
  return root;
}

describe("imageRecipe", () => {
  it("chains each image to the rootfs through its parents, each tagged by a content hash", () => {
    const cron = imageRecipe("cron", {});
    const chain = [];
    for (let recipe: typeof cron | undefined = cron; recipe; recipe = recipe.parent) chain.push(recipe.image);
    expect(chain).toEqual(["cron", "runit", "base", "rootfs"]);
    expect(cron.tag).toMatch(/^tend-it-cron:[0-9a-f]{16}$/);
    expect(cron.folder).toBe(join(IMAGES_FOLDER, "cron"));
    expect(cron.parent?.tag).toBe(imageRecipe("runit", {}).tag);
    expect(imageRecipe("cron", {}).tag).toBe(cron.tag);
  });

  it("builds every image's folder from a Dockerfile in packages/testkit/images", () => {
    expect(IMAGES_FOLDER).toMatch(/packages\/testkit\/images\/$/);
    expect(imageRecipe("systemd", {}).parent?.image).toBe("base");
  });

  it("tags an overlay image by its overlay's content too", () => {
    const one = imageRecipe("dinit", { TEND_IT_OVERLAY: dinitOverlay("v1") });
    const same = imageRecipe("dinit", { TEND_IT_OVERLAY: dinitOverlay("v1") });
    const other = imageRecipe("dinit", { TEND_IT_OVERLAY: dinitOverlay("v2") });
    expect(same.tag).toBe(one.tag);
    expect(other.tag).not.toBe(one.tag);
    expect(one.overlayFolder).toMatch(/\/dinit$/);
  });

  it("refuses an overlay image without its overlay, saying why", () => {
    expect(() => imageRecipe("s6rc", {})).toThrow(/^cannot build the s6rc image: TEND_IT_OVERLAY is not set/);
  });
});
