import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const CLI = new URL("../dist/bin.js", import.meta.url).pathname;
const SPEC = "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web/bin/server\n";

/** The built CLI, as a shell pipeline runs it: `input` on its standard input (a pipe), or `stdin` given. */
function tend(args: string[], cwd: string, stdin: { input: string } | { fd: "ignore" | "inherit" | number }) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", TEND_CACHE_DIR: join(cwd, "cache") },
    ...("input" in stdin ? { input: stdin.input } : { stdio: [stdin.fd, "pipe", "pipe"] }),
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

async function imageRoot(dir: string): Promise<string> {
  const root = join(dir, "root");
  await mkdir(join(root, "etc/runit/runsvdir/default"), { recursive: true });
  return root;
}

describe("a spec on standard input (-f -)", () => {
  it("is planned and applied as the same spec in a file would be, and validated twice from one read", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-stdin-"));
    const root = await imageRoot(dir);
    const plan = tend(["plan", "-f", "-", "--init", "runit", "--root", root], dir, { input: SPEC });
    expect(plan.err).toBe("");
    expect(plan.out).toContain("+ service:web  /opt/web/bin/server\n  1 to add");
    const apply = tend(["apply", "-f", "/dev/stdin", "--init", "runit", "--root", root], dir, { input: SPEC });
    expect(apply.err).toBe("");
    expect(apply.code).toBe(0);
    expect(await readdir(join(root, "etc/sv/tend-web"))).toContain("run");
    expect(tend(["plan", "-f", "-", "--init", "runit", "--root", root], dir, { input: SPEC }).out).toContain("0 to add, 0 to change, 0 to remove");
    // validate opens the spec twice (alone, then rendered on the init): one text, read once.
    const validate = tend(["validate", "-f", "-", "--init", "runit"], dir, { input: SPEC });
    expect(validate.out).toBe("<stdin>: valid, 1 service, 0 timers, 0 files, 0 packages\n");
  });

  it("names its line as <stdin>, and is refused when empty, since an empty spec removes everything", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-stdin-"));
    const root = await imageRoot(dir);
    tend(["apply", "-f", "-", "--init", "runit", "--root", root], dir, { input: SPEC });
    const bad = tend(["plan", "-f", "-", "--init", "runit", "--root", root], dir, { input: `${SPEC}restrat: always\n` });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("at <stdin>:5, service:web, field restrat");
    for (const stdin of [{ input: "" }, { input: "\n  \n" }, { fd: "ignore" as const }]) {
      const empty = tend(["apply", "-f", "-", "--init", "runit", "--root", root], dir, stdin);
      expect(empty.code).toBe(1);
      expect(empty.err).toContain("error TEND_SPEC: the spec on standard input is empty: as a spec it would remove every resource tend manages here");
    }
    // Nothing was removed; a spec that says nothing on purpose still can.
    expect(await readdir(join(root, "etc/sv"))).toEqual(["tend-web"]);
    const nothing = tend(["plan", "-f", "-", "--init", "runit", "--root", root], dir, { input: "# nothing\n" });
    expect(nothing.out).toContain("- service:web");
  });

  it("refuses a file whose name says neither YAML nor a module, saying how to pipe it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-stdin-"));
    await writeFile(join(dir, "spec.txt"), SPEC);
    const result = tend(["validate", "-f", "spec.txt"], dir, { fd: "ignore" });
    expect(result.code).toBe(1);
    expect(result.err).toContain(`error TEND_SPEC: ${join(dir, "spec.txt")} is neither a YAML spec (.yaml, .yml) nor a module`);
    expect(result.err).toContain(`hint Rename it to what it holds, or pipe a YAML spec in: tend plan -f - < ${join(dir, "spec.txt")}`);
    await writeFile(join(dir, "SPEC.YML"), SPEC);
    expect(tend(["validate", "-f", "SPEC.YML"], dir, { fd: "ignore" }).code).toBe(0);
  });
});
