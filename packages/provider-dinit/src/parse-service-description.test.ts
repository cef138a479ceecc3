import { describe, expect, it } from "vitest";
import { parseServiceDescription } from "./parse-service-description.js";

describe("parseServiceDescription", () => {
  it("reads dinit's example boot service (doc/linux/services/boot)", () => {
    const text = [
      "# This is the primary service, automatically started when the system comes up.",
      "",
      "type = internal",
      "",
      "# Each of these services starts a login prompt:",
      "depends-ms: tty1",
      "depends-ms: tty2",
      "",
      "# the boot.d directory contents determine other dependencies:",
      "waits-for.d: boot.d",
    ].join("\n");
    expect(parseServiceDescription(text)).toEqual({ waitsForD: ["boot.d"], dependencies: [{ type: "milestone", name: "tty1" }, { type: "milestone", name: "tty2" }] });
  });

  it("reads Chimera's boot service (absolute waits-for.d)", () => {
    const text = "type = internal\ndepends-on: system\nwaits-for.d: /etc/dinit.d/boot.d\n";
    expect(parseServiceDescription(text)).toEqual({ waitsForD: ["/etc/dinit.d/boot.d"], dependencies: [{ type: "need", name: "system" }] });
  });

  it("reads @meta enable-via, quoting and comments", () => {
    const text = '  @meta enable-via graphical\nwaits-for = "sshd"  # always\nwaits-for.d = "my dir" # x\r\n';
    expect(parseServiceDescription(text)).toEqual({ enableVia: "graphical", waitsForD: ["my dir"], dependencies: [{ type: "waits-for", name: "sshd" }] });
  });

  it("skips values that need dinit's environment, and a boot without waits-for.d has none", () => {
    expect(parseServiceDescription("type = internal\nwaits-for.d = $DIR/boot.d\n")).toEqual({ waitsForD: [], dependencies: [] });
  });
});
