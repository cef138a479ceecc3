import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePrintDisabled } from "./parse-print-disabled.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

describe("parsePrintDisabled on captured outputs", () => {
  it("reads the macOS 13+ form (`=> disabled` / `=> enabled`), indented after a blank line", () => {
    const overrides = parsePrintDisabled(fixture("print-disabled-gui-modern.txt"));
    expect(overrides?.size).toBe(15);
    expect(overrides?.get("com.ciao.server")).toBe(false);
    expect(overrides?.get("Ciaobot")).toBe(true);
    expect(overrides?.get("com.docker.helper")).toBe(false);
    expect(overrides?.get("com.apple.ScriptMenuApp")).toBe(true);
  });

  it("reads the older form (`=> true` means disabled) and ignores `login item associations`", () => {
    const overrides = parsePrintDisabled(fixture("print-disabled-user-legacy.txt"));
    expect(overrides?.size).toBe(15);
    expect(overrides?.get("com.docker.helper")).toBe(false);
    expect(overrides?.get("com.citrix.AuthManager_Mac")).toBe(true);
    expect(overrides?.has("version.com.docker.helper")).toBe(false);
  });

  it("reads the disabled services block inside a whole domain print", () => {
    const overrides = parsePrintDisabled(fixture("print-system-domain.txt"));
    expect(overrides).toEqual(
      new Map([
        ["com.apple.CSCSupportd", true],
        ["com.apple.ftpd", true],
        ["com.apple.mdmclient.daemon.runatboot", true],
      ]),
    );
  });

  it("answers undefined, not `nothing disabled`, when the block is cut off or missing", () => {
    const cut = fixture("print-disabled-gui-modern.txt").replace("\t}\n", "");
    expect(parsePrintDisabled(cut)).toBeUndefined();
    expect(parsePrintDisabled(fixture("print-gui-domain-missing.stderr.txt"))).toBeUndefined();
  });

  it("leaves out a word it does not know rather than guessing", () => {
    const odd = fixture("print-disabled-gui-modern.txt").replace('"Ciaobot" => disabled', '"Ciaobot" => maybe');
    expect(parsePrintDisabled(odd)?.has("Ciaobot")).toBe(false);
  });
});
