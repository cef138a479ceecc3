import { describe, expect, it } from "vitest";
import { ServiceSchema, type ResourceChange } from "@tend/core";
import { applyContext } from "@tend/testkit";
import { removeService } from "./remove-service.js";

const removal: ResourceChange = {
  key: "service:web",
  action: "remove",
  resource: ServiceSchema.parse({ type: "service", name: "web", exec: "/opt/web/bin/server" }),
  ops: [],
  filesChanged: true,
  reasons: [],
};

describe("removeService", () => {
  it("brings the service down through s6-rc before the switch", async () => {
    const ctx = await applyContext({ init: "s6" });
    await removeService(removal, ctx);
    expect(ctx.runner.lines).toEqual(["s6-rc -b -l /run/s6-rc -t 60000 -d -- change tend-web"]);
  });

  it("accepts a service the live database never had (exit 3)", async () => {
    const ctx = await applyContext({ init: "s6" });
    ctx.runner.on("s6-rc", { exitCode: 3, stderr: "s6-rc: fatal: tend-web is not a recognized identifier in /run/s6-rc/resolve.cdb\n" });
    await expect(removeService(removal, ctx)).resolves.toBeUndefined();
  });

  it("fails when s6-rc cannot bring it down", async () => {
    const ctx = await applyContext({ init: "s6" });
    ctx.runner.on("s6-rc", { exitCode: 1, stderr: "s6-rc: warning: unable to stop service tend-web: command exited 99\n" });
    await expect(removeService(removal, ctx)).rejects.toThrow(/unable to stop service tend-web/);
  });

  it("offline runs nothing", async () => {
    const ctx = await applyContext({ init: "s6", offline: true });
    await removeService(removal, ctx);
    expect(ctx.runner.lines).toEqual([]);
  });
});
