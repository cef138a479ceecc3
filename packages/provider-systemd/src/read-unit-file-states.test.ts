import { spawnSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalHostFiles } from "@tend/core/runtime";
import { writeHostTree, type HostTree } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { asLocalFiles } from "./__testing__/as-local-files.js";
import { parseListUnitFiles, type UnitFile } from "./parse-list-unit-files.js";
import { readUnitFileStates } from "./read-unit-file-states.js";

/** The oracle: the host's own `systemctl --root list-unit-files`. */
function systemctlList(root: string, names: string[]): Map<string, UnitFile> {
  if (names.length === 0) return new Map();
  const result = spawnSync("systemctl", [`--root=${root}`, "list-unit-files", "--output=json", "--", ...names], { encoding: "utf8" });
  if (result.status !== 0 && result.status !== 1) throw new Error(`systemctl: ${result.stderr}`);
  return parseListUnitFiles(result.stdout);
}

async function makeRoot(tree: HostTree): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "tend-unit-tree-"));
  await writeHostTree(root, tree);
  return root;
}

const WANTED = "[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n";
const ETC = "etc/systemd/system";

/** Units and links of every state the reader decides. */
const decided: HostTree = {
  [`${ETC}/tend-enabled.service`]: WANTED,
  [`${ETC}/multi-user.target.wants/tend-enabled.service`]: { link: "/etc/systemd/system/tend-enabled.service" },
  [`${ETC}/tend-disabled.service`]: WANTED,
  [`${ETC}/tend-static.service`]: "[Service]\nExecStart=/bin/true\n",
  [`${ETC}/tend-cleared.service`]: "[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\nWantedBy=\n",
  [`${ETC}/tend-backup.timer`]: "[Timer]\nOnCalendar=daily\n[Install]\nWantedBy=timers.target\n",
  [`${ETC}/timers.target.wants/tend-backup.timer`]: { link: "/etc/systemd/system/tend-backup.timer" },
  [`${ETC}/tend-backup.service`]: "[Service]\nType=oneshot\nExecStart=/bin/true\n",
  [`${ETC}/tend-required.service`]: "[Service]\nExecStart=/bin/true\n[Install]\nRequiredBy=local-fs.target\n",
  [`${ETC}/local-fs.target.requires/tend-required.service`]: { link: "../tend-required.service" },
  // linked by hand into a target its [Install] does not name: still enabled
  [`${ETC}/tend-elsewhere.service`]: WANTED,
  [`${ETC}/graphical.target.wants/tend-elsewhere.service`]: { link: "/etc/systemd/system/tend-elsewhere.service" },
  // a dangling link of a tend name, and a temp file and a drop-in folder systemctl does not list
  [`${ETC}/multi-user.target.wants/tend-gone.service`]: { link: "/etc/systemd/system/tend-gone.service" },
  [`${ETC}/.#tend-disabled.serviceab12`]: WANTED,
  [`${ETC}/tend-disabled.service.d/override.conf`]: "[Service]\nNice=5\n",
  // the distro's own units and links around them
  [`${ETC}/multi-user.target.wants/cron.service`]: { link: "/lib/systemd/system/cron.service" },
  [`${ETC}/dbus-org.freedesktop.timesync1.service`]: { link: "/lib/systemd/system/systemd-timesyncd.service" },
  "usr/lib/systemd/system/cron.service": WANTED,
  "usr/lib/systemd/system/multi-user.target.wants/getty.target": { link: "../getty.target" },
};

/** Both readings, by name (an image root, a fleet host) and as the host's own (folders listed with their entries' kinds), answer the same. */
async function compare(tree: HostTree) {
  const root = await makeRoot(tree);
  const files = new LocalHostFiles(root, { kind: "system" });
  const read = await readUnitFileStates(files);
  expect(await readUnitFileStates(asLocalFiles(files))).toEqual(read);
  const truth = systemctlList(root, ["tend-*"]);
  return { root, read, truth };
}

/** The reader's answer completed by systemctl for what it left: must be systemctl's whole answer. */
function completed(root: string, read: NonNullable<Awaited<ReturnType<typeof readUnitFileStates>>>) {
  return new Map([...read.files, ...systemctlList(root, read.unresolved)]);
}

describe("readUnitFileStates against systemctl --root list-unit-files", () => {
  it("decides enabled, disabled and static units, and their presets, as systemctl does", async () => {
    const { read, truth } = await compare(decided);
    expect(read).toBeDefined();
    expect(read!.unresolved).toEqual([]);
    expect(new Map([...read!.files].sort())).toEqual(new Map([...truth].sort()));
    expect(read!.files.get("tend-enabled.service")).toEqual({ state: "enabled", preset: "enabled" });
    expect(read!.files.size).toBe(8);
  });

  it.each([
    ["a disable rule", { "usr/lib/systemd/system-preset/90-local.preset": "disable tend-dis*\nenable *\n" }],
    ["an earlier file's rule first", { "usr/lib/systemd/system-preset/10-a.preset": "disable tend-[ae]*\n", "usr/lib/systemd/system-preset/20-b.preset": "enable tend-*\ndisable *\n" }],
    ["a catch-all disable", { "usr/lib/systemd/system-preset/99-default.preset": "# comment\n; other\n\ndisable *\n" }],
    ["an /etc file hiding the vendor's of the same name", { "usr/lib/systemd/system-preset/90-x.preset": "disable *\n", "etc/systemd/system-preset/90-x.preset": "enable tend-enabled.service\ndisable tend-?isabled.service\n" }],
    ["a vendor file masked from /etc", { "usr/lib/systemd/system-preset/90-x.preset": "disable *\n", "etc/systemd/system-preset/90-x.preset": { link: "/dev/null" } }],
    ["a negated set", { "usr/lib/systemd/system-preset/50-n.preset": "disable tend-[!e]*\n" }],
  ] as [string, HostTree][])("reads presets with %s", async (_, presets) => {
    const { read, truth } = await compare({ ...decided, ...presets });
    expect(read?.unresolved).toEqual([]);
    expect(new Map([...read!.files].sort())).toEqual(new Map([...truth].sort()));
  });

  it("the presets change what it reports (the comparison above can fail)", async () => {
    const { read } = await compare({ ...decided, "usr/lib/systemd/system-preset/99-default.preset": "disable *\n" });
    expect(read!.files.get("tend-enabled.service")).toEqual({ state: "enabled", preset: "disabled" });
  });

  it.each([
    ["masked", { [`${ETC}/tend-masked.service`]: { link: "/dev/null" } }],
    ["empty (masked)", { [`${ETC}/tend-empty.service`]: "" }],
    ["linked from outside", { "opt/units/tend-linked.service": WANTED, [`${ETC}/tend-linked.service`]: { link: "/opt/units/tend-linked.service" } }],
    ["with an alias", { [`${ETC}/tend-alias.service`]: `${WANTED}Alias=tend-other.service\n` }],
    ["with Also= only", { [`${ETC}/tend-also.service`]: "[Service]\nExecStart=/bin/true\n[Install]\nAlso=tend-static.service\n" }],
    ["a template", { [`${ETC}/tend-tpl@.service`]: WANTED }],
    ["with UpheldBy= (systemd 252 ignores it)", { [`${ETC}/tend-upheld.service`]: "[Service]\nExecStart=/bin/true\n[Install]\nUpheldBy=multi-user.target\n" }],
    ["linked in .upholds", { [`${ETC}/tend-up.service`]: WANTED, [`${ETC}/multi-user.target.upholds/tend-up.service`]: { link: "/etc/systemd/system/tend-up.service" } }],
    ["continued", { [`${ETC}/tend-cont.service`]: "[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target \\\n  graphical.target\n" }],
    ["a file, not a link, in .wants", { [`${ETC}/tend-plain.service`]: WANTED, [`${ETC}/multi-user.target.wants/tend-plain.service`]: WANTED }],
  ] as [string, HostTree][])("leaves a unit %s to systemctl, and the rest is still exact", async (_, extra) => {
    const { root, read, truth } = await compare({ ...decided, ...extra });
    expect(read?.unresolved).toEqual(Object.keys(extra).filter((p) => p.startsWith(`${ETC}/tend-`)).map((p) => p.slice(ETC.length + 1)));
    expect(new Map([...completed(root, read!)].sort())).toEqual(new Map([...truth].sort()));
  });

  it.each([
    ["a runtime link to a tend unit (enable --runtime)", { "run/systemd/system/multi-user.target.wants/tend-disabled.service": { link: "/etc/systemd/system/tend-disabled.service" } }],
    ["a runtime mask of a tend unit", { "run/systemd/system/tend-enabled.service": { link: "/dev/null" } }],
    ["a generated tend unit", { "run/systemd/generator/tend-generated.service": "[Service]\nExecStart=/bin/true\n" }],
    ["a transient tend unit", { "run/systemd/transient/tend-transient.service": "[Service]\nExecStart=/bin/true\n" }],
    ["a runtime alias of a tend unit", { "run/systemd/system/other.service": { link: "/etc/systemd/system/tend-enabled.service" } }],
    ["a control folder", { "etc/systemd/system.control/tend-enabled.service.d/50-x.conf": "[Service]\nNice=1\n" }],
    ["a tend unit in a vendor folder", { "usr/lib/systemd/system/tend-vendor.service": WANTED }],
    ["a vendor link to a tend unit", { "usr/lib/systemd/system/multi-user.target.wants/tend-disabled.service": { link: "/etc/systemd/system/tend-disabled.service" } }],
    ["an alias link to a tend unit", { [`${ETC}/other-name.service`]: { link: "/etc/systemd/system/tend-disabled.service" } }],
    ["a preset line it does not read", { "usr/lib/systemd/system-preset/90-x.preset": "enable tend-tpl@.service a b\n" }],
  ] as [string, HostTree][])("leaves everything to systemctl with %s", async (_, extra) => {
    const { read, truth } = await compare({ ...decided, ...extra });
    expect(read).toBeUndefined();
    expect(truth.size).toBeGreaterThan(0);
  });

  it("decides beside the runtime, generated and transient units a booted host has, none of them tend's", async () => {
    const { read, truth } = await compare({
      ...decided,
      "run/systemd/system/session-1.scope.d/50-Slice.conf": "[Scope]\nSlice=user-0.slice\n",
      "run/systemd/generator/-.mount": "[Mount]\nWhat=/dev/sda1\nWhere=/\n",
      "run/systemd/generator/local-fs.target.requires/-.mount": { link: "../-.mount" },
      "run/systemd/generator.late/cron.service": WANTED,
      "run/systemd/transient/run-r1.service": "[Service]\nExecStart=/bin/true\n",
      "lib": { link: "usr/lib" },
      "usr/lib/systemd/system/sshd.service": { link: "ssh.service" },
      "usr/lib/systemd/system/ssh.service": WANTED,
    });
    expect(read?.unresolved).toEqual([]);
    expect(new Map([...read!.files].sort())).toEqual(new Map([...truth].sort()));
    expect(read!.files.size).toBe(8);
  });

  it("fails on a folder it cannot list with HostFiles' own error, whichever way it lists (a link loop)", async () => {
    const root = await makeRoot({ [`${ETC}/tend-a.service`]: WANTED, "run/systemd/generator": { link: "generator" } });
    const files = new LocalHostFiles(root, { kind: "system" });
    const failure = await readUnitFileStates(files).catch((error: unknown) => error);
    expect(String(failure)).toMatch(/^TendError: .*\/run\/systemd\/generator.*more than 40 symlinks/);
    expect(String(await readUnitFileStates(asLocalFiles(files)).catch((error: unknown) => error))).toBe(String(failure));
  });

  it("reads an empty root as no units, with no preset read", async () => {
    const root = await makeRoot({ "etc/hostname": "image\n" });
    const files = new LocalHostFiles(root, { kind: "system" });
    expect(await readUnitFileStates(files)).toEqual({ files: new Map(), unresolved: [] });
    expect(await readUnitFileStates(asLocalFiles(files))).toEqual({ files: new Map(), unresolved: [] });
  });
});
