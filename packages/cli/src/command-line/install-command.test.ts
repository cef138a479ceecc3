import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installCommandFor } from "./install-command.js";

describe("the install hint follows how tend was installed", () => {
  it.each([
    ["npm global", "usr/lib/node_modules/@tend/cli", [], "npm install --global @tend/provider-cron"],
    ["pnpm global", "root/.local/share/pnpm/global/5/node_modules/@tend/cli", [], "pnpm add --global @tend/provider-cron"],
    ["yarn global", "home/a/.config/yarn/global/node_modules/@tend/cli", [], "yarn global add @tend/provider-cron"],
    ["a project with npm", "proj/node_modules/@tend/cli", ["proj/package.json"], "npm install @tend/provider-cron (in PROJ)"],
    ["a project with pnpm", "proj/node_modules/.pnpm/@tend+cli@1.0.0/node_modules/@tend/cli", ["proj/package.json", "proj/pnpm-lock.yaml"], "pnpm add @tend/provider-cron (in PROJ)"],
    ["a project with yarn", "proj/node_modules/@tend/cli", ["proj/package.json", "proj/yarn.lock"], "yarn add @tend/provider-cron (in PROJ)"],
  ])("%s", async (_what, cli, files, expected) => {
    const base = await mkdtemp(join(tmpdir(), "tend-install-"));
    await mkdir(join(base, cli), { recursive: true });
    for (const file of files) await writeFile(join(base, file), "{}");
    expect(installCommandFor(join(base, cli))("@tend/provider-cron")).toBe(expected.replace("PROJ", join(base, "proj")));
  });
});
