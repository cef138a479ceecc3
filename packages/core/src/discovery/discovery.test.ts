import { chmod, chown, mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ProviderRegistry } from "../session/provider-registry.js";
import { InitCatalogue, type HostProbe } from "./init-catalogue.js";
import { installPlaces, projectPlace } from "./provider-places.js";
import { CORE_VERSION } from "./load-provider.js";

const isRoot = process.getuid?.() === 0;

/** A provider package in a node_modules folder: package.json with a manifest, and index.js. */
async function pkg(modules: string, name: string, manifest: object | undefined, options: { body?: string; exports?: unknown; coreRange?: string; version?: string } = {}) {
  const dir = join(modules, name);
  await mkdir(dir, { recursive: true });
  const json = {
    name,
    version: options.version ?? "1.0.0",
    type: "module",
    ...(options.exports !== undefined ? { exports: options.exports } : { main: "index.js" }),
    ...(options.coreRange ? { peerDependencies: { "@tend/core": options.coreRange } } : {}),
    ...(manifest ? { tend: { provider: manifest } } : {}),
  };
  await writeFile(join(dir, "package.json"), JSON.stringify(json));
  await mkdir(join(dir, "dist"), { recursive: true });
  const body = options.body ?? `export default { apiVersion: 1, name: "x", serves: ${JSON.stringify({ inits: (manifest as { inits?: string[] } | undefined)?.inits ?? [], types: (manifest as { types?: string[] } | undefined)?.types ?? [], ...((manifest as { fallback?: boolean } | undefined)?.fallback ? { fallback: true } : {}) })}, capabilities: {}, render() { return []; }, observe: async () => new Map(), apply: async () => {}, remove: async () => {} };`;
  await writeFile(join(dir, "index.js"), body);
  await writeFile(join(dir, "dist/index.js"), body);
  return dir;
}

const RUNIT = { apiVersion: 1, types: ["service"], inits: ["runit"], declares: { runit: { detect: { pid1: ["runit", "runsvdir"] }, native: ["service"], suggest: { timer: "@tend/provider-cron" } } } };
const CRON = { apiVersion: 1, types: ["timer"], inits: [], fallback: true };
const probe = (pid1: string, paths: string[] = [], platform = "linux"): HostProbe => ({ platform, pid1: () => pid1, exists: (p) => paths.includes(p) });

async function project() {
  const dir = await mkdtemp(join(tmpdir(), "tend-disc-"));
  await chmod(dir, 0o755);
  await writeFile(join(dir, "package.json"), "{}");
  return dir;
}

describe("discovery", () => {
  it("reads the spec's project and tend's install, never a node_modules above them (/tmp/node_modules)", async () => {
    const top = await mkdtemp(join(tmpdir(), "tend-disc-top-"));
    await pkg(join(top, "node_modules"), "tend-provider-planted", RUNIT, { body: "throw new Error('planted code ran');" });
    const spec = join(top, "proj");
    await mkdir(join(spec, "deep/er"), { recursive: true });
    await writeFile(join(spec, "package.json"), "{}");
    await pkg(join(spec, "node_modules"), "@tend/provider-runit", RUNIT);
    const registry = new ProviderRegistry([projectPlace(join(spec, "deep/er"))!]);
    expect(registry.found.map((p) => [p.packageName, p.origin])).toEqual([["@tend/provider-runit", "spec's project"]]);
    expect(projectPlace(join(spec, "deep/er"))).toEqual({ modules: join(spec, "node_modules"), origin: "spec's project" });
  });

  it("finds tend's install: the CLI's own node_modules and the one it is installed in (npm global, pnpm's store, a workspace)", async () => {
    const prefix = await mkdtemp(join(tmpdir(), "tend-prefix-"));
    const npmCli = join(prefix, "lib/node_modules/@tend/cli");
    await mkdir(npmCli, { recursive: true });
    expect(installPlaces(npmCli).map((p) => p.modules)).toEqual([join(npmCli, "node_modules"), join(prefix, "lib/node_modules")]);
    const pnpmCli = join(prefix, "proj/node_modules/.pnpm/@tend+cli@1.0.0/node_modules/@tend/cli");
    await mkdir(pnpmCli, { recursive: true });
    expect(installPlaces(pnpmCli).map((p) => p.modules)).toEqual([
      join(pnpmCli, "node_modules"),
      join(prefix, "proj/node_modules/.pnpm/@tend+cli@1.0.0/node_modules"),
      join(prefix, "proj/node_modules"),
    ]);
    const workspaceCli = join(prefix, "repo/packages/cli");
    await mkdir(workspaceCli, { recursive: true });
    await mkdir(join(prefix, "repo/node_modules/@tend"), { recursive: true });
    await symlink(workspaceCli, join(prefix, "repo/node_modules/@tend/cli"));
    expect(installPlaces(workspaceCli).map((p) => p.modules)).toEqual([join(workspaceCli, "node_modules"), join(prefix, "repo/node_modules")]);
  });

  it("knows the inits the manifests declare, and detects them by PID 1, marker path, image path and platform", async () => {
    const dir = await project();
    await pkg(join(dir, "node_modules"), "@tend/provider-runit", RUNIT);
    await pkg(join(dir, "node_modules"), "@tend/provider-openrc", { apiVersion: 1, types: ["service"], inits: ["openrc"], declares: { openrc: { displayName: "OpenRC", detect: { pid1: ["openrc-init"], paths: ["/run/openrc"], imagePaths: ["/sbin/openrc"] }, native: ["service"] } } });
    await pkg(join(dir, "node_modules"), "tend-provider-demo", { apiVersion: 1, types: ["service"], inits: ["demo"], declares: { demo: { detect: { platforms: ["demo-os"] }, native: ["service"] } } });
    const inits = new ProviderRegistry([projectPlace(dir)!]).inits;
    expect(inits.names.sort()).toEqual(["demo", "openrc", "runit"]);
    expect(inits.detect(probe("runsvdir"))).toBe("runit");
    expect(inits.detect(probe("init", ["/run/openrc"]))).toBe("openrc");
    // OpenRC's program tells an image root, where nothing runs yet, not a live host (installed is not running).
    expect(inits.detect({ ...probe("init", ["/sbin/openrc"]), image: true })).toBe("openrc");
    expect(inits.detect({ ...probe("runsvdir", ["/sbin/openrc"]), image: true })).toBe("runit");
    expect(inits.detect(probe("init", ["/sbin/openrc"]))).toBeUndefined();
    expect(inits.detect(probe("systemd"))).toBeUndefined();
    expect(inits.detect(probe("runit", [], "demo-os"))).toBe("demo");
    expect(inits.displayName("openrc")).toBe("OpenRC");
    expect(new InitCatalogue([]).detect(probe("systemd"))).toBeUndefined();
  });

  it("serves timers on an init without its own through the fallback provider the init suggests, and names the package to install", async () => {
    const dir = await project();
    await pkg(join(dir, "node_modules"), "@tend/provider-runit", RUNIT);
    const without = new ProviderRegistry([projectPlace(dir)!]);
    expect(without.packageFor("runit", "timer")).toBeUndefined();
    const error = await without.providerFor("runit", "timer", "timer:backup").catch((e: unknown) => e as Error & { hint?: string });
    expect(error.message).toBe("timer:backup on runit needs the provider @tend/provider-cron, which is not installed");
    await pkg(join(dir, "node_modules"), "@tend/provider-cron", CRON);
    await pkg(join(dir, "node_modules"), "tend-provider-othercron", CRON);
    const registry = new ProviderRegistry([projectPlace(dir)!]);
    expect(registry.packageFor("runit", "timer")?.packageName).toBe("@tend/provider-cron");
    expect(registry.packageFor("runit", "service")?.packageName).toBe("@tend/provider-runit");
  });

  it("serves packages on every init through a provider for a type no init runs itself (apt on runit, systemd, OpenRC)", async () => {
    const dir = await project();
    await pkg(join(dir, "node_modules"), "@tend/provider-runit", RUNIT);
    await pkg(join(dir, "node_modules"), "@tend/provider-systemd", { apiVersion: 1, types: ["service", "timer"], inits: ["systemd"], declares: { systemd: { native: ["service", "timer"] } } });
    await pkg(join(dir, "node_modules"), "@tend/provider-apt", { apiVersion: 1, types: ["package"], inits: [], fallback: true });
    const registry = new ProviderRegistry([projectPlace(dir)!]);
    for (const init of ["runit", "systemd", "openrc"]) expect(registry.packageFor(init, "package")?.packageName).toBe("@tend/provider-apt");
    expect(registry.packageFor("runit", "timer")).toBeUndefined();
    expect(registry.packageFor("systemd", "service")?.packageName).toBe("@tend/provider-systemd");
    expect((await registry.providerFor("runit", "package", "package:nginx")).serves.types).toEqual(["package"]);
  });

  it("prefers a provider the spec lists, then the init's own", async () => {
    const dir = await project();
    await pkg(join(dir, "node_modules"), "@tend/provider-runit", RUNIT);
    await pkg(join(dir, "node_modules"), "tend-provider-alt", { apiVersion: 1, types: ["service"], inits: ["runit"] });
    const registry = new ProviderRegistry([projectPlace(dir)!]);
    expect(registry.packageFor("runit", "service")?.packageName).toBe("@tend/provider-runit");
    registry.addListed(["tend-provider-alt"], dir);
    expect(registry.packageFor("runit", "service")?.packageName).toBe("tend-provider-alt");
  });

  it("collects a package without a valid marker as a problem instead of failing", async () => {
    const dir = await project();
    await pkg(join(dir, "node_modules"), "tend-provider-nomarker", undefined);
    await pkg(join(dir, "node_modules"), "tend-provider-badinit", { apiVersion: 1, types: ["service"], inits: ["Bad Init"] });
    const registry = new ProviderRegistry([projectPlace(dir)!]);
    expect(registry.problems).toEqual([
      { packageName: "tend-provider-badinit", message: expect.stringContaining('"inits" must list init names') },
      { packageName: "tend-provider-nomarker", message: expect.stringContaining('no "tend": { "provider"') },
    ]);
  });

  it("resolves the entry as Node does, from an exports map with types and import conditions", async () => {
    const dir = await project();
    await pkg(join(dir, "node_modules"), "@tend/provider-runit", RUNIT, { exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" }, "./package.json": "./package.json" } });
    const registry = new ProviderRegistry([projectPlace(dir)!]);
    await expect(registry.providerFor("runit", "service")).resolves.toMatchObject({ apiVersion: 1 });
  });

  it("refuses a provider whose @tend/core peer range excludes this core, with both versions", async () => {
    const dir = await project();
    await pkg(join(dir, "node_modules"), "@tend/provider-runit", RUNIT, { coreRange: "^5.0.0", version: "5.1.0" });
    const error = await new ProviderRegistry([projectPlace(dir)!]).providerFor("runit", "service").catch((e: unknown) => e as Error & { code: string });
    expect(error.code).toBe("TEND_PROVIDER_INCOMPATIBLE");
    expect(error.message).toBe(`provider @tend/provider-runit@5.1.0 needs @tend/core ^5.0.0, and this tend runs @tend/core ${CORE_VERSION}`);
  });

  it("refuses a provider whose code serves something else than its package.json says", async () => {
    const dir = await project();
    await pkg(join(dir, "node_modules"), "@tend/provider-runit", RUNIT, {
      body: `export default { apiVersion: 1, name: "x", serves: { inits: ["runit"], types: ["service", "timer"] }, capabilities: {}, render() { return []; } };`,
    });
    await expect(new ProviderRegistry([projectPlace(dir)!]).providerFor("runit", "service")).rejects.toThrow("its package.json serves service, its code service, timer");
  });

  it.runIf(isRoot)("as root, refuses a provider another user than the one who ran sudo could change", async () => {
    const dir = await project();
    const provider = await pkg(join(dir, "node_modules"), "@tend/provider-runit", RUNIT);
    await chown(join(provider, "index.js"), 65534, 65534);
    await expect(new ProviderRegistry([projectPlace(dir)!]).providerFor("runit", "service")).rejects.toThrow(/refusing to load provider @tend\/provider-runit as root: .*index\.js belongs to uid 65534/);
    // Unless that user ran tend through sudo: they could be root anyway, as for the spec.
    const sudoUid = process.env.SUDO_UID;
    process.env.SUDO_UID = "65534";
    try {
      await expect(new ProviderRegistry([projectPlace(dir)!]).providerFor("runit", "service")).resolves.toMatchObject({ apiVersion: 1 });
    } finally {
      if (sudoUid === undefined) delete process.env.SUDO_UID;
      else process.env.SUDO_UID = sudoUid;
    }
    await chown(join(provider, "index.js"), 0, 0);
    await chmod(join(dir, "node_modules"), 0o777);
    await expect(new ProviderRegistry([projectPlace(dir)!]).providerFor("runit", "service")).rejects.toThrow(/node_modules is writable by every user/);
  });
});
