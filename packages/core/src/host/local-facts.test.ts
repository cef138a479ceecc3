import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { release, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localFacts, parseOsRelease } from "./local-facts.js";

describe("a local run's detected facts", () => {
  it("reads os-release's values as the shell a fleet target sources it with does", () => {
    const text = 'NAME="Debian GNU/Linux"\nID=debian\n# a comment\nVERSION_ID="12"\nPRETTY_NAME="say \\"hi\\" for \\$5"\nVARIANT_ID=\'server edition\'\n  lower=no\n';
    expect(parseOsRelease(text)).toEqual({ NAME: "Debian GNU/Linux", ID: "debian", VERSION_ID: "12", PRETTY_NAME: 'say "hi" for $5', VARIANT_ID: "server edition" });
    // The oracle: sh sources the same lines.
    const sourced = execFileSync("sh", ["-c", 'eval "$(cat)"; printf "%s|%s|%s" "$ID" "$VERSION_ID" "$PRETTY_NAME"'], { input: text, encoding: "utf8" });
    const parsed = parseOsRelease(text);
    expect(sourced).toBe(`${parsed.ID}|${parsed.VERSION_ID}|${parsed.PRETTY_NAME}`);
  });

  it("are this machine's os-release and kernel, as a fleet run detects them on a target", () => {
    let expected: Record<string, string> = {};
    for (const file of ["/etc/os-release", "/usr/lib/os-release"]) {
      try {
        expected = parseOsRelease(readFileSync(file, "utf8"));
        break;
      } catch {
        // the next one
      }
    }
    const facts = localFacts();
    expect(facts.kernel).toBe(release());
    expect(facts.distro).toBe(expected.ID);
    expect(facts.distroVersion).toBe(expected.VERSION_ID);
  });

  it("are the image's in an image root: its os-release through its own links, no kernel, and none from a FIFO or a device", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-local-facts-"));
    // Debian's layout: /etc/os-release a link to ../usr/lib/os-release.
    const image = join(dir, "image");
    await mkdir(join(image, "etc"), { recursive: true });
    await mkdir(join(image, "usr/lib"), { recursive: true });
    await writeFile(join(image, "usr/lib/os-release"), 'ID=alpine\nVERSION_ID=3.20.1\n');
    await symlink("../usr/lib/os-release", join(image, "etc/os-release"));
    expect(localFacts(image)).toEqual({ distro: "alpine", distroVersion: "3.20.1" });
    // A link that climbs out of the image ends inside it: the host's os-release is not the image's.
    const climbing = join(dir, "climbing");
    await mkdir(join(climbing, "etc"), { recursive: true });
    await symlink("../../../../../../etc/os-release", join(climbing, "etc/os-release"));
    expect(localFacts(climbing)).toEqual({});
    // A FIFO would hang a read; a device is never opened.
    const fifo = join(dir, "fifo");
    await mkdir(join(fifo, "etc"), { recursive: true });
    execFileSync("mkfifo", [join(fifo, "etc/os-release")]);
    expect(localFacts(fifo)).toEqual({});
    const device = join(dir, "device");
    await mkdir(join(device, "etc"), { recursive: true });
    await symlink("/dev/zero", join(device, "etc/os-release"));
    await mkdir(join(device, "dev"));
    execFileSync("mknod", [join(device, "dev/zero"), "c", "1", "5"]);
    expect(localFacts(device)).toEqual({});
    // No os-release at all: no distro, as a fleet target without one.
    const empty = join(dir, "empty");
    await mkdir(empty);
    expect(localFacts(empty)).toEqual({});
  });
});
