import { describe, expect, it } from "vitest";
import { simProvider } from "../__fixtures__/sim-provider.js";
import { simSession } from "../__fixtures__/sim-session.js";
import { defineProvider, type ProviderDefinition } from "../index.js";

/** A package provider whose observe takes a while, then fails. */
function slowFailingPackages(events: string[]): ProviderDefinition {
  return defineProvider({
    apiVersion: 1,
    name: "slowpkg",
    serves: { inits: [], types: ["package"], fallback: true },
    capabilities: {} as ProviderDefinition["capabilities"],
    render: () => [],
    async observe() {
      events.push("slowpkg asked");
      await new Promise((resolve) => setTimeout(resolve, 30));
      events.push("slowpkg answered");
      throw new Error("slowpkg: the package database is locked");
    },
    async apply() {},
    async remove() {},
  }) as unknown as ProviderDefinition;
}

describe("observing every provider", () => {
  it("asks the providers side by side, and fails with the first provider's failure in their order", async () => {
    const events: string[] = [];
    const sim = simProvider().provider;
    const failingSim = {
      ...sim,
      async observe() {
        events.push("sim asked");
        throw new Error("sim: the init does not answer");
      },
    } as ProviderDefinition;
    const { session } = await simSession(
      [
        { type: "package", name: "demo" },
        { type: "service", name: "web", exec: "/usr/bin/web" },
      ],
      [failingSim, slowFailingPackages(events)],
    );
    await expect(session.buildPlan()).rejects.toThrow(/the package database is locked/);
    // sim was asked before slowpkg answered: neither waited for the other
    expect(events).toEqual(["slowpkg asked", "sim asked", "slowpkg answered"]);
  });
});
