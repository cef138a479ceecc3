import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDomainPrint } from "./parse-domain-print.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

describe("parseDomainPrint on captured outputs", () => {
  it("reads the services block of `launchctl print system`, and only it", () => {
    const jobs = parseDomainPrint(fixture("print-system-domain.txt"));
    expect(jobs).toEqual(
      new Map([
        ["com.apple.lskdd", { lastExit: "-" }],
        ["com.apple.runningboardd", { pid: 184, lastExit: "-" }],
        ["com.apple.relatived", { lastExit: "-" }],
      ]),
    );
  });

  it("reads `launchctl print gui/501`, tab-indented, without picking up the disabled services block", () => {
    const jobs = parseDomainPrint(fixture("print-gui-domain-elided.txt"));
    expect(jobs).toEqual(
      new Map([
        ["net.jwpconsulting.postgresql", { pid: 887, lastExit: "-" }],
        ["com.apple.syncdefaultsd", { pid: 866, lastExit: "-" }],
      ]),
    );
    expect(jobs?.has("com.apple.rcd")).toBe(false);
  });

  it("skips the author's `[…]` elisions and the endpoints block", () => {
    const jobs = parseDomainPrint(fixture("print-system-domain-elided.txt"));
    expect([...(jobs?.keys() ?? [])]).toEqual(["com.apple.rpmuxd", "com.apple.lskdd", "com.apple.kernelmanager_helper", "com.apple.runningboardd"]);
    expect(jobs?.get("com.apple.runningboardd")).toEqual({ pid: 539, lastExit: "-" });
  });

  it("keeps a last exit status and a killing signal", () => {
    const text = fixture("print-system-domain.txt").replace("       0      -     com.apple.relatived", "       0     78     com.apple.relatived");
    expect(parseDomainPrint(text)?.get("com.apple.relatived")).toEqual({ lastExit: "78" });
  });

  it("answers undefined for text without a services block", () => {
    expect(parseDomainPrint(fixture("print-gui-domain-missing.stderr.txt"))).toBeUndefined();
    expect(parseDomainPrint(fixture("print-disabled-gui-modern.txt"))).toBeUndefined();
  });
});
