import { describe, expect, it } from "vitest";
import { parseInstallSection } from "./parse-install-section.js";

describe("parseInstallSection", () => {
  it("reads space-separated, repeated lists from [Install] only, an empty assignment clearing them", () => {
    const text = [
      "[Unit]",
      "WantedBy=not-here.target",
      "[Install]",
      "# WantedBy=commented.target",
      "WantedBy=a.target b.target",
      "WantedBy=c.target",
      "RequiredBy=x.target",
      "RequiredBy=",
      "RequiredBy=y.target",
      "Alias=alias.service",
      "Also=other.service",
    ].join("\n");
    expect(parseInstallSection(text)).toEqual({ wantedBy: ["a.target", "b.target", "c.target"], requiredBy: ["y.target"], alias: ["alias.service"], also: ["other.service"], plain: true });
  });
});
