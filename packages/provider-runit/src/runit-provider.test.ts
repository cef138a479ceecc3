import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describeConformance } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import provider from "./index.js";

describeConformance({
  provider,
  packageJson: new URL("../package.json", import.meta.url),
  init: "runit",
  prepareRoot: (root) => mkdir(join(root, "etc/runit/runsvdir/default"), { recursive: true }).then(() => undefined),
});

describe("the runit provider", () => {
  it("declares what runit can express", () => {
    expect(provider.capabilities).toEqual({
      service: { userServices: true, distroUnits: true, after: "services", displayManager: false, reloadSignal: true },
    });
  });

  it("waits long enough for a start behind an after check", () => {
    expect(provider.startTimeoutMs).toBe(10_000);
  });
});
