import { execFile } from "node:child_process";
import { chown, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const CLI = new URL("../dist/bin.js", import.meta.url).pathname;

/**
 * A cache entry says what a run applies, so root trusts its cache only where no one else could
 * have written it: here the entries are changed by hand, as a user who could replace the cache
 * folder would change them, and root's plan uses them only while the folder above is root's own.
 */
describe.skipIf(process.getuid?.() !== 0)("root's cache", () => {
  it("is used while only root can change it, and ignored once another user owns a folder above it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-cache-trust-"));
    const parent = join(dir, "parent");
    const root = join(dir, "root");
    await mkdir(parent, { mode: 0o755 });
    await mkdir(join(root, "etc/runit/runsvdir/default"), { recursive: true });
    await writeFile(join(dir, "tend.yaml"), "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web/bin/server\n");
    const plan = async () =>
      (await run(process.execPath, [CLI, "plan", "-f", join(dir, "tend.yaml"), "--init", "runit", "--root", root], { env: { ...process.env, TEND_CACHE_DIR: join(parent, "cache") } })).stdout;

    expect(await plan()).toContain("+ service:web  /opt/web/bin/server");
    const specs = join(parent, "cache", "specs");
    for (const name of await readdir(specs)) {
      const path = join(specs, name);
      await writeFile(path, (await readFile(path, "utf8")).replaceAll("/opt/web/bin/server", "/opt/evil/bin/server"));
    }
    // The same text again: its validated resources come from the cache, as changed.
    expect(await plan()).toContain("+ service:web  /opt/evil/bin/server");

    await chown(parent, 65534, 65534);
    const output = await plan();
    expect(output).toContain("+ service:web  /opt/web/bin/server");
    expect(output).not.toContain("evil");
  });
});
