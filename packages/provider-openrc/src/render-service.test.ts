import { describe, expect, it } from "vitest";
import { renderService } from "./render-service.js";

describe("renderService", () => {
  it("writes one executable script at /etc/init.d/tend-<name>", () => {
    const [artifact, ...rest] = renderService({ type: "service", name: "web", exec: "/opt/web/bin/server" });
    expect(rest).toEqual([]);
    expect(artifact).toMatchObject({ path: "/etc/init.d/tend-web", mode: 0o755 });
    expect(artifact!.content.startsWith("#!/sbin/openrc-run\n# Managed by tend. Edits are overwritten on the next apply.\n")).toBe(true);
  });

  it("writes nothing for a distro service", () => {
    expect(renderService({ type: "service", name: "sshd" })).toEqual([]);
  });
});
