import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hashTree } from "./hash-tree.js";
import { HOST_IMAGE_SPECS, type HostImageName } from "./host-images.js";
import { overlayStatus } from "./overlay-status.js";

/** packages/testkit/images, next to src/ and dist/. */
export const IMAGES_FOLDER = fileURLToPath(new URL("../../images/", import.meta.url));

/** The debootstrap call behind tend-it-rootfs; changing it changes the rootfs tag. */
export const ROOTFS_RECIPE = { suite: "bookworm", variant: "minbase", arch: process.arch, revision: 1 } as const;

/** An image the harness builds with `docker build`: the shared base or a host image. */
export type BuildableImage = "base" | HostImageName;

/** What one image is made from, and the tag that content hashes to. */
export interface ImageRecipe {
  image: "rootfs" | BuildableImage;
  /** `tend-it-<image>:<hash>`: the hash covers everything below, parents included. */
  tag: string;
  parent?: ImageRecipe;
  /** The Dockerfile folder, packages/testkit/images/<image>. */
  folder?: string;
  /** Overlay images: TEND_IT_OVERLAY/<image>, merged onto / of the image. */
  overlayFolder?: string;
}

/**
 * The recipe of `image` and its parents, tagged by content: the Dockerfile folder's files, the
 * parent's tag and the overlay folder's files. Throws for an overlay image whose overlay is missing.
 */
export function imageRecipe(image: BuildableImage, env: NodeJS.ProcessEnv = process.env): ImageRecipe {
  if (image === "base") return folderRecipe("base", rootfsRecipe());
  const spec = HOST_IMAGE_SPECS[image];
  const parent = imageRecipe(spec.parent, env);
  if (spec.overlayPrograms === undefined) return folderRecipe(image, parent);
  const status = overlayStatus(image, env);
  if (!status.available) throw new Error(`cannot build the ${image} image: ${status.why}`);
  return folderRecipe(image, parent, status.folder);
}

function rootfsRecipe(): ImageRecipe {
  return { image: "rootfs", tag: `tend-it-rootfs:${shortHash(JSON.stringify(ROOTFS_RECIPE))}` };
}

function folderRecipe(image: BuildableImage, parent: ImageRecipe, overlayFolder?: string): ImageRecipe {
  const folder = join(IMAGES_FOLDER, image);
  const content = [parent.tag, hashTree(folder), overlayFolder === undefined ? "" : hashTree(overlayFolder)];
  const recipe: ImageRecipe = { image, tag: `tend-it-${image}:${shortHash(content.join("\n"))}`, parent, folder };
  if (overlayFolder !== undefined) recipe.overlayFolder = overlayFolder;
  return recipe;
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}
