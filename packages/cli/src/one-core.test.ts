import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The built packages (dist/): the CLI is one bundled file, @tend/core one bundle of its runtime
 * entry that its other entries re-export from. There must be one copy of core's classes at run
 * time however a program reaches core: the CLI through `@tend/core/runtime`, a provider through `@tend/core/contract`,
 * a spec through `@tend/core`. Otherwise `TendError` instanceof and the registry break.
 */
describe("one copy of @tend/core at run time", () => {
  const bin = readFileSync(fileURLToPath(new URL("../dist/bin.js", import.meta.url)), "utf8");

  it("the CLI bundle imports core from the install and holds none of its classes", () => {
    expect(bin).toMatch(/from "@tend\/core\/runtime"|import\("@tend\/core\/runtime"\)/);
    expect(bin).not.toMatch(/class TendError\b/);
    expect(bin).not.toMatch(/class Session\b/);
  });

  it("core's entries and a provider share TendError and Session", async () => {
    const runtime = await import("@tend/core/runtime");
    const contract = await import("@tend/core/contract");
    const index = await import("@tend/core");
    expect(runtime.TendError).toBe(contract.TendError);
    expect(index.TendError).toBe(contract.TendError);
    expect(index.Session).toBe(runtime.Session);
    // A provider's error, made through the contract as the provider resolves it, is a TendError to the CLI's core.
    const providerDir = fileURLToPath(new URL("../../provider-systemd/", import.meta.url));
    const providerContract = (await import(realpathSync(join(providerDir, "node_modules/@tend/core/dist/contract/index.js")))) as typeof contract;
    const made = providerContract.errors.spec("x", { file: "/f" });
    expect(made instanceof runtime.TendError).toBe(true);
    expect(runtime.TendError.isInstance(made)).toBe(true);
  });
});
