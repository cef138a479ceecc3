import { chmod, chown, lstat, mkdir, mkdtemp, readFile, rename, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simProvider } from "../__fixtures__/sim-provider.js";
import { simSession } from "../__fixtures__/sim-session.js";
import { LocalHostFiles } from "../files/host-files.js";
import { applyPlan, formatPlan, type ProviderDefinition } from "../index.js";

const FAST = { verify: { settle: 0.05 } };
const WEB = { type: "service", name: "web", exec: "/opt/web --port 8080", restartOn: ["file:conf"], requires: ["file:conf"], ...FAST };
const CONF = { type: "file", name: "conf", path: "/etc/web/web.conf", content: "port = 8080\n", mode: "0640" };
const asRoot = process.getuid?.() === 0;

async function cycle(resources: unknown[], provider: ProviderDefinition, root?: string) {
  const { session, runner, root: dir } = await simSession(resources, [provider], root ? { root } : {});
  const { plan, state, assigned } = await session.buildPlan();
  const report = await applyPlan(session, plan, state, assigned);
  return { plan, report, runner, root: dir };
}

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

describe("a file's mode and owner, compared like its content", () => {
  it("a mode changed by hand is drift: apply sets it in place (same bytes, same inode, same mtime), and a restartOn service restarts", async () => {
    const sim = simProvider();
    const first = await cycle([CONF, WEB], sim.provider);
    const conf = join(first.root, "etc/web/web.conf");
    expect(await modeOf(conf)).toBe(0o640);
    await chmod(conf, 0o666);
    const before = await stat(conf);
    const second = await cycle([CONF, WEB], sim.provider, first.root);
    const text = formatPlan(second.plan);
    expect(text).toContain("  ! file:conf drifted: /etc/web/web.conf has mode 0666, not 0640\n      then  set the permissions of its files\n");
    expect(text).toContain("  ~ service:web  restart\n      reason  file:conf changed, restartOn matched\n");
    expect(second.report.failures).toEqual([]);
    const after = await stat(conf);
    expect(after.mode & 0o7777).toBe(0o640);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(await readFile(conf, "utf8")).toBe("port = 8080\n");
    expect(second.runner.lines).toContain("simctl restart -- tend-web");
    const third = await cycle([CONF, WEB], sim.provider, first.root);
    expect(third.plan.entries.every((e) => e.action === "none")).toBe(true);
  });

  it("a service's own file whose mode changed is set back without a restart, and the init is not told (it reads the same bytes)", async () => {
    const sim = simProvider();
    const first = await cycle([CONF, WEB], sim.provider);
    const unit = join(first.root, "etc/sim/tend-web.conf");
    await chmod(unit, 0o600);
    const second = await cycle([CONF, WEB], sim.provider, first.root);
    expect(formatPlan(second.plan)).toContain("  ! service:web drifted: /etc/sim/tend-web.conf has mode 0600, not 0644\n      then  set the permissions of its files\n");
    expect(second.report.failures).toEqual([]);
    expect(await modeOf(unit)).toBe(0o644);
    expect(second.runner.lines.filter((l) => !l.startsWith("simctl status"))).toEqual([]);
  });

  it("a mode changed in the spec is a reason, not drift, and lands in place", async () => {
    const sim = simProvider();
    const first = await cycle([CONF], sim.provider);
    const second = await cycle([{ ...CONF, mode: "0600" }], sim.provider, first.root);
    expect(formatPlan(second.plan)).toContain("  ~ file:conf  set the permissions of its files\n      reason  /etc/web/web.conf has mode 0640, not 0600\n");
    expect(second.plan.entries[0]!.drift).toEqual([]);
    expect(await modeOf(join(first.root, "etc/web/web.conf"))).toBe(0o600);
  });

  it("never sets a mode through a link swapped in after the plan read the file: the file it points at keeps its mode", async () => {
    const sim = simProvider();
    const first = await cycle([CONF], sim.provider);
    const conf = join(first.root, "etc/web/web.conf");
    await chmod(conf, 0o666);
    const outside = join(first.root, "outside");
    await writeFile(outside, "port = 8080\n", { mode: 0o666 });
    await chmod(outside, 0o666);
    const { session } = await simSession([CONF], [sim.provider], { root: first.root });
    const { plan, state, assigned } = await session.buildPlan();
    expect(plan.entries[0]!.writes.map((w) => w.why)).toEqual(["attributes"]);
    await rename(conf, `${conf}.moved`);
    await symlink(outside, conf);
    const report = await applyPlan(session, plan, state, assigned);
    expect(report.failures.map((f) => `${f.code} ${f.message}`)).toEqual(["TEND_UNSAFE_PATH refusing to change the mode of /etc/web/web.conf: it is now a symlink, not the file tend made"]);
    expect(await modeOf(outside)).toBe(0o666);
    expect((await lstat(conf)).isSymbolicLink()).toBe(true);
  });

  it("leaves a file edited after the plan read it as it is: no mode set on bytes tend did not write", async () => {
    const sim = simProvider();
    const first = await cycle([CONF], sim.provider);
    const conf = join(first.root, "etc/web/web.conf");
    await chmod(conf, 0o666);
    const { session } = await simSession([CONF], [sim.provider], { root: first.root });
    const { plan, state, assigned } = await session.buildPlan();
    await writeFile(conf, "port = 1\n");
    const report = await applyPlan(session, plan, state, assigned);
    expect(report.failures.map((f) => `${f.code} ${f.message}`)).toEqual(["TEND_UNMANAGED_FILE did not change the mode of /etc/web/web.conf: it changed after this apply read it"]);
    expect(await modeOf(conf)).toBe(0o666);
  });

  it.runIf(asRoot)("an owner and group set by name: a file given to another user by hand is given back (as root)", async () => {
    const sim = simProvider();
    const { root } = await simSession([], [sim.provider]);
    await mkdir(join(root, "etc"), { recursive: true });
    await writeFile(join(root, "etc/passwd"), "root:x:0:0::/root:/bin/sh\nweb:x:1500:1500::/srv/web:/bin/sh\n");
    await writeFile(join(root, "etc/group"), "root:x:0:\nweb:x:1500:\nstaff:x:1600:\n");
    const owned = { ...CONF, owner: "web", group: "staff" };
    const first = await cycle([owned], sim.provider, root);
    const conf = join(root, "etc/web/web.conf");
    expect([(await stat(conf)).uid, (await stat(conf)).gid]).toEqual([1500, 1600]);
    await chown(conf, 0, 0);
    const second = await cycle([owned], sim.provider, first.root);
    expect(formatPlan(second.plan)).toContain("  ! file:conf drifted: /etc/web/web.conf is owned by uid 0, not 1500 and has group gid 0, not 1600\n");
    expect([(await stat(conf)).uid, (await stat(conf)).gid]).toEqual([1500, 1600]);
    expect(second.report.failures).toEqual([]);
  });

  it("a file with no owner in the spec keeps whatever owner it has: only its mode is compared", async () => {
    const sim = simProvider();
    const first = await cycle([CONF], sim.provider);
    if (asRoot) await chown(join(first.root, "etc/web/web.conf"), 1234, 1234);
    const second = await cycle([CONF], sim.provider, first.root);
    expect(second.plan.entries.every((e) => e.action === "none")).toBe(true);
  });

  it("sets a folder's mode only on the folder itself: never through a link swapped in for it, never on a file put in its place", async () => {
    const root = await mkdtemp(join(tmpdir(), "tend-folder-modes-"));
    const outside = await mkdtemp(join(tmpdir(), "tend-outside-"));
    await chmod(outside, 0o777);
    await mkdir(join(root, "etc/sv/web"), { recursive: true });
    await chmod(join(root, "etc/sv/web"), 0o777);
    await symlink(outside, join(root, "etc/sv/linked"));
    await writeFile(join(root, "etc/sv/file"), "x");
    const files = new LocalHostFiles(root, { kind: "system" });
    const results = await files.perform([
      { op: "attributes", path: "/etc/sv/web", kind: "directory", mode: 0o755 },
      { op: "attributes", path: "/etc/sv/linked", kind: "directory", mode: 0o755 },
      { op: "attributes", path: "/etc/sv/file", kind: "directory", mode: 0o755 },
    ]);
    expect(results.map((r) => r && `${r.code} ${r.message}`)).toEqual([
      null,
      "TEND_UNSAFE_PATH refusing to change the mode of /etc/sv/linked: it is now a symlink, not the folder tend made",
      "TEND_UNSAFE_PATH refusing to change the mode of /etc/sv/file: it is now a file, not the folder tend made",
    ]);
    expect([await modeOf(join(root, "etc/sv/web")), await modeOf(outside), await modeOf(join(root, "etc/sv/file"))]).toEqual([0o755, 0o777, 0o644]);
  });
});
