import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ProviderRegistry } from "./provider-registry.js";

async function pkg(root: string, name: string, manifest: object | undefined, body = "export default { apiVersion: 1, name: 'x', render() { return []; } };") {
  const dir = join(root, "node_modules", name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", type: "module", main: "index.js", ...(manifest ? { tend: { provider: manifest } } : {}) }));
  await writeFile(join(dir, "index.js"), body);
}

describe("ProviderRegistry", () => {
  it("finds all three name forms from the spec's folder up, then tend's own install, reading only manifests", async () => {
    const spec = await mkdtemp(join(tmpdir(), "tend-disc-"));
    const tool = await mkdtemp(join(tmpdir(), "tend-tool-"));
    await pkg(spec, "@tend/provider-openrc", { apiVersion: 1, inits: ["openrc"], types: ["service"] });
    await pkg(spec, "@acme/tend-provider-sd", { apiVersion: 1, inits: ["systemd"], types: ["service"] }, "throw new Error('must not be imported');");
    await pkg(tool, "tend-provider-extra", { apiVersion: 1, inits: ["dinit"], types: ["timer"] });
    await pkg(spec, "unrelated", undefined);
    const registry = new ProviderRegistry(join(spec, "sub", "dir"), tool);
    expect(registry.found.map((p) => [p.packageName, p.origin])).toEqual([
      ["@acme/tend-provider-sd", "spec folder"],
      ["@tend/provider-openrc", "spec folder"],
      ["tend-provider-extra", "tend's install"],
    ]);
    expect(registry.packageFor("dinit", "timer")?.packageName).toBe("tend-provider-extra");
  });

  it("collects a broken package as a problem instead of failing", async () => {
    const spec = await mkdtemp(join(tmpdir(), "tend-disc-"));
    await pkg(spec, "tend-provider-nomarker", undefined);
    const registry = new ProviderRegistry(spec, spec);
    expect(registry.problems).toEqual([{ packageName: "tend-provider-nomarker", message: expect.stringContaining('no "tend": { "provider"') }]);
  });

  it("names the exact install command for a provider the plan needs", async () => {
    const empty = await mkdtemp(join(tmpdir(), "tend-disc-"));
    const registry = new ProviderRegistry(empty, empty);
    const error = await registry.providerFor("runit", "timer", "timer:backup").catch((e: unknown) => e as Error & { hint?: string });
    expect(error.message).toBe("timer:backup on runit needs the provider @tend/provider-cron, which is not installed");
    expect(error.hint).toBe("Install it: npm install --global @tend/provider-cron");
  });

  it("prefers a provider the spec lists over the first-party one", async () => {
    const spec = await mkdtemp(join(tmpdir(), "tend-disc-"));
    await pkg(spec, "@tend/provider-runit", { apiVersion: 1, inits: ["runit"], types: ["service"] });
    await pkg(spec, "tend-provider-alt", { apiVersion: 1, inits: ["runit"], types: ["service"] });
    expect(new ProviderRegistry(spec, spec).packageFor("runit", "service")?.packageName).toBe("@tend/provider-runit");
    expect(new ProviderRegistry(spec, spec, ["tend-provider-alt"]).packageFor("runit", "service")?.packageName).toBe("tend-provider-alt");
  });
});
