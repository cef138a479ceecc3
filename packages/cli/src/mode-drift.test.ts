import { chmod, mkdtemp, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tendInProcess as tend } from "./__fixtures__/tend-in-process.js";
import { imageRoot } from "./__fixtures__/image-root.js";

const SPEC = `tend: v1alpha1
type: Service
name: web
exec: /usr/bin/web
`;

describe("modes compared like content, folders too", () => {
  it("a runit service's folder and run script loosened by hand are drift, set back in place: same inode, same modification time", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-modes-"));
    await writeFile(join(dir, "tend.yaml"), SPEC);
    const root = await imageRoot(dir, "root");
    const args = ["--init", "runit", "--root", root, "-f", join(dir, "tend.yaml")];
    expect((await tend(["apply", ...args])).code).toBe(0);
    const folder = join(root, "etc/sv/tend-web");
    const run = join(folder, "run");
    await chmod(folder, 0o777);
    await chmod(run, 0o775);
    const before = await stat(run);
    const plan = await tend(["plan", "--detailed-exitcode", ...args]);
    expect(plan.code, plan.out).toBe(2);
    expect(plan.out).toContain("  ! service:web drifted: /etc/sv/tend-web has mode 0777, not 0755; /etc/sv/tend-web/run has mode 0775, not 0755\n      then  set the permissions of its files\n");
    const apply = await tend(["apply", ...args]);
    expect(apply.code, apply.out).toBe(0);
    expect(apply.out).toContain("service:web: set /etc/sv/tend-web to mode 0755\n");
    const after = await stat(run);
    expect([(await stat(folder)).mode & 0o7777, after.mode & 0o7777]).toEqual([0o755, 0o755]);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect((await tend(["plan", "--detailed-exitcode", ...args])).code).toBe(0);
  });
});
