import { lstat, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tendInFolder } from "./__fixtures__/tend-in-folder.js";

const cli = tendInFolder;

const USERS: Record<string, [number, number]> = { root: [0, 0], nobody: [65534, 65534], daemon: [1, 1] };
const GROUPS: Record<string, number> = { root: 0, nogroup: 65534, daemon: 1, adm: 4 };

/**
 * Whatever mode, owner and group a File names, one apply gives it exactly those, and the next
 * plan finds nothing to do: setuid and setgid survive the chown, a group named alone is given.
 * Then each File is changed in place to other attributes, and again one apply converges; an
 * owner or group no longer named is left as it is, as the plan does not compare it.
 */
describe.skipIf(process.getuid?.() !== 0)("a File's mode, owner and group", () => {
  const attributes = fc.record({
    mode: fc.integer({ min: 0, max: 0o7777 }),
    owner: fc.constantFrom(undefined, ...Object.keys(USERS)),
    group: fc.constantFrom(undefined, ...Object.keys(GROUPS)),
  });
  type Attributes = { mode: number; owner: string | undefined; group: string | undefined };

  const spec = (files: Attributes[]) =>
    files
      .map((f, i) =>
        [
          "tend: v1alpha1",
          "type: File",
          `name: f${i}`,
          `path: /etc/app/f${i}.conf`,
          "content: x",
          `mode: "${f.mode.toString(8).padStart(4, "0")}"`,
          ...(f.owner ? [`owner: ${f.owner}`] : []),
          ...(f.group ? [`group: ${f.group}`] : []),
        ].join("\n"),
      )
      .join("\n---\n");

  /** Owner and group as tend gives them: a user's own group with the user; neither named, left as they were (root's for a new file). */
  function ownership(f: Attributes, before: [number, number] = [0, 0]): [number, number] {
    const uid = f.owner ? USERS[f.owner]![0] : before[0];
    const gid = f.group ? GROUPS[f.group]! : f.owner ? USERS[f.owner]![1] : before[1];
    return [uid, gid];
  }

  async function applyAndCheck(dir: string, root: string, files: Attributes[], before: Attributes[] = []): Promise<void> {
    await writeFile(join(dir, "tend.yaml"), `${spec(files)}\n`);
    const apply = await cli(["apply", "--init", "runit", "--root", root], dir);
    expect(apply.err).toBe("");
    expect(apply.code).toBe(0);
    for (const [i, f] of files.entries()) {
      const info = await lstat(join(root, `etc/app/f${i}.conf`));
      const [uid, gid] = ownership(f, before[i] && ownership(before[i]!));
      expect({ i, mode: (info.mode & 0o7777).toString(8), uid: info.uid, gid: info.gid }).toEqual({ i, mode: f.mode.toString(8), uid, gid });
    }
    const plan = await cli(["plan", "--init", "runit", "--root", root], dir);
    expect(plan.out).toContain("0 to add, 0 to change, 0 to remove");
  }

  it("are what one apply gives it, and a plan after finds nothing to do, then again after any change", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(attributes, attributes), { minLength: 1, maxLength: 4 }), async (pairs) => {
        const dir = await mkdtemp(join(tmpdir(), "tend-file-converge-"));
        const root = join(dir, "root");
        await mkdir(join(root, "etc"), { recursive: true });
        await writeFile(join(root, "etc/passwd"), Object.entries(USERS).map(([name, [uid, gid]]) => `${name}:x:${uid}:${gid}::/:/bin/sh`).join("\n") + "\n");
        await writeFile(join(root, "etc/group"), Object.entries(GROUPS).map(([name, gid]) => `${name}:x:${gid}:`).join("\n") + "\n");
        await applyAndCheck(dir, root, pairs.map(([first]) => first));
        await applyAndCheck(
          dir,
          root,
          pairs.map(([, second]) => second),
          pairs.map(([first]) => first),
        );
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
