import { mkdtemp, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";
import { imageRoot, withCron } from "./__fixtures__/image-root.js";
import { secretSpec } from "./__fixtures__/secret-spec.js";

const SPEC = secretSpec("hunter22", "abcdefgh");

/** Every file beneath `root` but tend's state, with its permission bits: `{ "etc/sv/tend-db/run": "700" }`. */
async function modes(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = relative(root, join(entry.parentPath, entry.name));
    if (!entry.isFile() || path.startsWith("var/lib/tend/") || path === "usr/sbin/cron") continue;
    found[path] = ((await stat(join(root, path))).mode & 0o7777).toString(8);
  }
  return found;
}

describe("the files of a resource whose env holds a secret", () => {
  it.each([
    ["systemd", { "etc/systemd/system/tend-db.service": "600", "etc/systemd/system/tend-web.service": "644", "etc/systemd/system/tend-backup.service": "600", "etc/systemd/system/tend-backup.timer": "600" }],
    ["runit", { "etc/sv/tend-db/run": "700", "etc/sv/tend-db/finish": "700", "etc/sv/tend-db/log/run": "700", "etc/sv/tend-web/run": "755", "etc/sv/tend-web/log/run": "755", "etc/cron.d/tend-backup": "600" }],
    ["openrc", { "etc/init.d/tend-db": "700", "etc/init.d/tend-web": "755", "etc/cron.d/tend-backup": "600" }],
  ] as const)("on %s are readable by their owner only, and the rest keep their modes", async (init, expected) => {
    const dir = await mkdtemp(join(tmpdir(), "tend-secret-"));
    await writeFile(join(dir, "tend.yaml"), SPEC);
    const root = await imageRoot(dir, "root");
    // A cron to run the timer where the init has none.
    await withCron(root);
    let err = "";
    const code = await runCli(["apply", "--init", init, "--root", root, "-f", join(dir, "tend.yaml")], { stdout: { write: () => undefined }, stderr: { write: (t: string) => (err += t) }, env: { NO_COLOR: "1" } }, "9.9.9");
    expect(code, err).toBe(0);
    expect(await modes(root)).toMatchObject(expected);
  });
});
