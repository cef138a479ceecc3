import { describe, expect, it } from "vitest";
import type { Plan } from "../plan/plan-types.js";
import { formatPlan, planToJson } from "./format-plan.js";

const base = {
  key: "service:web",
  resource: { type: "service", name: "web", exec: "/opt/web" },
  provider: "systemd",
  ops: [],
  reasons: [],
  drift: [],
  conflicts: [],
  orphans: [],
  editedDeletions: [],
  refusals: [],
  writes: [],
  artifacts: [],
  summary: "/opt/web",
} as const;

describe("formatPlan", () => {
  it("shows a provider's warnings (a foreign drop-in) even when there is nothing to do, and in the JSON", () => {
    const plan: Plan = {
      host: { name: "h", init: "systemd", os: "linux", arch: "x64", user: "root", home: "/root" },
      initDisplayName: "systemd",
      scope: { kind: "system" },
      serial: 3,
      warnings: [],
      entries: [{ ...base, action: "none", warnings: ["/etc/systemd/system/tend-web.service.d/override.conf changes it (ExecStart); tend leaves drop-ins alone"] }],
    };
    expect(formatPlan(plan)).toBe(
      "host h (systemd)\n  ! service:web warning: /etc/systemd/system/tend-web.service.d/override.conf changes it (ExecStart); tend leaves drop-ins alone\n  0 to add, 0 to change, 0 to remove\n",
    );
    expect(planToJson(plan)).toMatchObject({ changes: [{ key: "service:web", action: "none", warnings: [expect.stringContaining("override.conf")] }] });
  });
});
