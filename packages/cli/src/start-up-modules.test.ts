import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const CLI = new URL("../dist/bin.js", import.meta.url).pathname;

/**
 * What a plan of the built CLI loads, seen through Node's module hooks (every ES module
 * and CommonJS file it loads, by URL): a provider is one file, and once a spec was validated a
 * second run loads neither zod nor the YAML parser.
 */
let dir: string;
let register: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tend-modules-"));
  await mkdir(join(dir, "cache"), { mode: 0o700 });
  await writeFile(join(dir, "hooks.mjs"), `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) { appendFileSync(process.env.TEND_TEST_MODULE_LOG, url + "\\n"); return next(url, context); }\n`);
  register = join(dir, "register.mjs");
  await writeFile(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});\n`);
  await writeFile(join(dir, "tend.yaml"), "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web/bin/server\n");
  await writeFile(join(dir, "tend.config.ts"), `import { defineConfig, service } from "@tend/core";\nexport default defineConfig(() => [service("web", { exec: "/opt/web/bin/server" })]);\n`);
});

/** The files a plan of `spec` loads (node's own built-ins left out). */
async function modulesOfPlan(spec: string, name: string): Promise<string[]> {
  const log = join(dir, `${name}.log`);
  const root = join(dir, `root-${name}`);
  await mkdir(join(root, "etc/runit/runsvdir/default"), { recursive: true });
  await writeFile(log, "");
  await run(process.execPath, ["--import", register, CLI, "plan", "-f", join(dir, spec), "--init", "runit", "--root", root], {
    env: { ...process.env, TEND_CACHE_DIR: join(dir, "cache"), TEND_TEST_MODULE_LOG: log },
  });
  return (await readFile(log, "utf8")).split("\n").filter((url) => url.startsWith("file:"));
}

async function loadsZodOrYaml(urls: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const url of urls) {
    const text = await readFile(new URL(url), "utf8");
    if (/class ZodError|ZodType\b|YAMLParseError/.test(text)) found.push(url);
  }
  return found;
}

describe("what a plan loads", () => {
  it.each(["tend.yaml", "tend.config.ts"])("%s: a second run loads no zod and no YAML parser; runit's provider is one file", async (spec) => {
    const first = await modulesOfPlan(spec, `${spec}-1`);
    expect((await loadsZodOrYaml(first)).length).toBeGreaterThan(0);
    const second = await modulesOfPlan(spec, `${spec}-2`);
    expect(await loadsZodOrYaml(second)).toEqual([]);
    expect(second.filter((url) => url.includes("/provider-runit/")).map((url) => url.replace(/.*\/provider-runit\//, ""))).toEqual(["dist/index.js"]);
  });
});
