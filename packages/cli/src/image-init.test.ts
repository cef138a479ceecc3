import { mkdir, mkdtemp, rename, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tendInFolder } from "./__fixtures__/tend-in-folder.js";

const cli = tendInFolder;

/** The init `tend providers` names for these flags (null: none). */
async function initOf(cwd: string, flags: string[]): Promise<string | null> {
  return (JSON.parse((await cli(["providers", ...flags, "--json"], cwd)).out) as { result: { init: string | null } }).result.init;
}

/** An image root whose /sbin/init is a link, as each distro's init package makes it (usrmerge: /sbin is usr/sbin). */
async function imageWithInit(dir: string, name: string, link: string, program: string): Promise<string> {
  const root = join(dir, name);
  await mkdir(join(root, "usr/sbin"), { recursive: true });
  await symlink("usr/sbin", join(root, "sbin"));
  await mkdir(join(root, "usr", program, ".."), { recursive: true });
  await writeFile(join(root, "usr", program), "", { mode: 0o755 });
  await symlink(link, join(root, "usr/sbin/init"));
  return root;
}

describe("the init of an image root", () => {
  const SPEC = "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n";

  it("is the one the image's /sbin/init names, whatever this host runs", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-image-init-"));
    await writeFile(join(dir, "tend.yaml"), SPEC);
    const images = [
      ["systemd", await imageWithInit(dir, "debian", "/lib/systemd/systemd", "lib/systemd/systemd")],
      ["runit", await imageWithInit(dir, "void", "runit-init", "sbin/runit-init")],
      ["dinit", await imageWithInit(dir, "chimera", "../bin/dinit", "bin/dinit")],
    ] as const;
    await symlink("usr/lib", join(dir, "debian/lib"));
    await mkdir(join(dir, "chimera/etc/dinit.d/boot.d"), { recursive: true });
    await writeFile(join(dir, "chimera/etc/dinit.d/boot"), "type = internal\nwaits-for.d = /etc/dinit.d/boot.d\n");
    for (const [init, root] of images) {
      const plan = await cli(["plan", "--root", root], dir);
      expect(plan.err).toBe("");
      expect(plan.out).toContain(`(${init})\n  + service:web  /opt/web\n`);
      expect(await initOf(dir, ["--root", root])).toBe(init);
    }
    // --init still decides.
    expect((await cli(["plan", "--root", images[0][1], "--init", "openrc"], dir)).out).toContain("(OpenRC)");
  });

  it("is OpenRC when the image holds OpenRC's program and boots it from sysvinit's or busybox's inittab", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-image-init-"));
    await writeFile(join(dir, "tend.yaml"), SPEC);
    // Debian: sysvinit's /sbin/init, a regular file; Alpine: /sbin/init a link to busybox.
    const debian = join(dir, "debian");
    await mkdir(join(debian, "usr/sbin"), { recursive: true });
    await symlink("usr/sbin", join(debian, "sbin"));
    await writeFile(join(debian, "usr/sbin/init"), "", { mode: 0o755 });
    await writeFile(join(debian, "usr/sbin/openrc"), "", { mode: 0o755 });
    const alpine = await imageWithInit(dir, "alpine", "/bin/busybox", "bin/busybox");
    await rename(join(alpine, "usr/bin"), join(alpine, "bin"));
    await writeFile(join(alpine, "usr/sbin/openrc"), "", { mode: 0o755 });
    for (const root of [debian, alpine]) {
      const plan = await cli(["plan", "--root", root], dir);
      expect(plan.err).toBe("");
      expect(plan.out).toContain("(OpenRC)\n  + service:web  /opt/web\n");
      expect(await initOf(dir, ["--root", root])).toBe("openrc");
    }
  });

  it("gives the spec the image's distro in host.facts, and host.groups, as a fleet run gives a target's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-image-init-"));
    await writeFile(
      join(dir, "tend.config.ts"),
      [
        'import { defineConfig, service } from "@tend/core";',
        "export default defineConfig((host) => [",
        '  service(`web-${String(host.facts?.distro)}-${String(host.facts?.distroVersion).replace(".", "-")}-${host.facts?.kernel === undefined ? "nokernel" : "kernel"}`, { exec: "/opt/web" }),',
        '  ...(host.groups?.includes("edge") ? [service("edge", { exec: "/opt/edge" })] : []),',
        "]);",
      ].join("\n"),
    );
    const root = await imageWithInit(dir, "alpine", "runit-init", "sbin/runit-init");
    await mkdir(join(root, "etc"));
    await writeFile(join(root, "etc/os-release"), 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.20\n');
    const plan = await cli(["plan", "--root", root], dir);
    expect(plan.err).toBe("");
    expect(plan.out).toContain("+ service:web-alpine-3-20-nokernel  /opt/web\n  1 to add");
  });

  it("follows the image's links inside the image only, and is this host's when the image names none", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-image-init-"));
    await writeFile(join(dir, "tend.yaml"), SPEC);
    // A link that climbs out of the image to a dinit on this host ends inside the image, where there is none.
    await mkdir(join(dir, "outside"));
    await writeFile(join(dir, "outside/dinit"), "", { mode: 0o755 });
    const climbing = await imageWithInit(dir, "climbing", `${"../".repeat(12)}${join(dir, "outside/dinit").slice(1)}`, "bin/other");
    const empty = join(dir, "empty");
    await mkdir(empty);
    const unknown = await imageWithInit(dir, "sysv", "/usr/lib/sysvinit/init", "lib/sysvinit/init");
    const thisHost = await initOf(dir, []);
    expect(thisHost).not.toBe("dinit");
    for (const root of [climbing, empty, unknown]) expect(await initOf(dir, ["--root", root])).toBe(thisHost);
  });
});
