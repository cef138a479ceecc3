import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImageRecipe } from "./image-recipe.js";
import { lastLines, runCommand } from "./run-command.js";

/**
 * `docker build` of one image folder with the classic builder (BuildKit is not used here) and
 * the host's network (the engine has no bridge; apt inside needs the mirror). The build context is
 * a copy of the folder, with the overlay folder's files added under overlay/ for overlay images.
 * The whole build output goes to `logFile`; a failure shows its end.
 */
export async function buildImage(recipe: ImageRecipe, logFile: string): Promise<void> {
  if (recipe.folder === undefined || recipe.parent === undefined) throw new Error(`${recipe.image} is not built from a folder`);
  const context = await mkdtemp(join(tmpdir(), `tend-it-${recipe.image}-`));
  try {
    await cp(recipe.folder, context, { recursive: true });
    if (recipe.overlayFolder !== undefined) {
      await cp(recipe.overlayFolder, join(context, "overlay"), { recursive: true, verbatimSymlinks: true });
    }
    const argv = ["docker", "build", "--network", "host", "--build-arg", `PARENT=${recipe.parent.tag}`];
    argv.push("--label", `tend-it.image=${recipe.image}`, "--tag", recipe.tag, context);
    const result = await runCommand(argv, { env: { ...process.env, DOCKER_BUILDKIT: "0" }, okCodes: "any" });
    const output = `$ ${argv.join(" ")}\n${result.stdout}${result.stderr}`;
    await writeFile(logFile, output);
    if (result.exitCode !== 0) {
      throw new Error(`building ${recipe.tag} failed (exit ${result.exitCode}); ${logFile} ends with:\n${lastLines(output, 40)}`);
    }
  } finally {
    await rm(context, { recursive: true, force: true });
  }
}
