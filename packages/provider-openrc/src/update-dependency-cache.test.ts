import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { updateDependencyCache } from "./update-dependency-cache.js";

describe("updateDependencyCache", () => {
  it("rebuilds OpenRC's dependency cache after scripts or conf.d files changed", async () => {
    const runner = new RecordingRunner();
    const ctx = await applyContext({ init: "openrc", runner });
    await updateDependencyCache([], ["/etc/nginx/nginx.conf"], ctx);
    expect(runner.lines).toEqual([]);
    await updateDependencyCache([], ["/etc/nginx/nginx.conf", "/etc/init.d/tend-web"], ctx);
    await updateDependencyCache([], ["/etc/conf.d/nginx"], ctx);
    expect(runner.lines).toEqual(["rc-update -u", "rc-update -u"]);
  });

  it("runs nothing offline", async () => {
    const runner = new RecordingRunner();
    await updateDependencyCache([], ["/etc/init.d/tend-web"], await applyContext({ init: "openrc", runner, offline: true }));
    expect(runner.lines).toEqual([]);
  });
});
