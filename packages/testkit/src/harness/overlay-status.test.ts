import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { overlayStatus } from "./overlay-status.js";

const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** An overlay root with the given files and modes. */
function overlay(files: Record<string, number>): string {
  const root = mkdtempSync(join(tmpdir(), "tend-overlay-"));
  made.push(root);
  for (const [file, mode] of Object.entries(files)) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "#!/bin/sh\n", { mode });
  }
  return root;
}

describe("overlayStatus", () => {
  it("says images of Debian packages are always available", () => {
    for (const name of ["systemd", "runit", "openrc", "s6", "cron"] as const) expect(overlayStatus(name, {})).toEqual({ available: true });
  });

  it("names TEND_IT_OVERLAY and the folder layout when it is not set", () => {
    const status = overlayStatus("dinit", {});
    expect(status).toEqual({
      available: false,
      why: "TEND_IT_OVERLAY is not set: the dinit image needs a folder dinit/ holding dinit, dinitctl in a bin folder such as usr/sbin (see packages/testkit/images/README.md)",
    });
  });

  it("names the missing init folder", () => {
    const root = overlay({ "dinit/usr/sbin/dinit": 0o755, "dinit/usr/sbin/dinitctl": 0o755 });
    const status = overlayStatus("s6rc", { TEND_IT_OVERLAY: root });
    expect(status.available).toBe(false);
    expect(!status.available && status.why).toMatch(new RegExp(`^TEND_IT_OVERLAY=${root} has no s6rc/ folder`));
  });

  it("names each missing or non-executable program", () => {
    const root = overlay({
      "s6rc/usr/bin/s6-rc": 0o755,
      "s6rc/usr/bin/s6-rc-init": 0o755,
      "s6rc/usr/bin/s6-rc-db": 0o644,
      "s6rc/usr/local/bin/s6-rc-update": 0o755,
    });
    const status = overlayStatus("s6rc", { TEND_IT_OVERLAY: root });
    expect(status).toEqual({
      available: false,
      why: `${root}/s6rc lacks s6-rc-compile, s6-rc-db: no executable of that name in usr/local/sbin, usr/local/bin, usr/sbin, usr/bin, sbin, bin`,
    });
  });

  it("is available when every program is there, in any bin folder", () => {
    const root = overlay({ "dinit/sbin/dinit": 0o755, "dinit/usr/local/bin/dinitctl": 0o755, "dinit/usr/lib/libfoo.so": 0o644 });
    expect(overlayStatus("dinit", { TEND_IT_OVERLAY: root })).toEqual({ available: true, folder: join(root, "dinit") });
  });
});
