import { execFile } from "node:child_process";
import { appendFile, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { TendError } from "../errors/tend-error.js";
import { LocalHostFiles } from "../files/host-files.js";
import { StateStore } from "./state-store.js";

const execFileAsync = promisify(execFile);
const WEB = { type: "service", name: "web", exec: "/opt/web" } as const;

async function store(stateJson?: unknown, journal?: string) {
  const root = await mkdtemp(join(tmpdir(), "tend-state-"));
  await mkdir(join(root, "var/lib/tend"), { recursive: true });
  if (stateJson !== undefined) await writeFile(join(root, "var/lib/tend/state.json"), typeof stateJson === "string" ? stateJson : JSON.stringify(stateJson));
  if (journal !== undefined) await writeFile(join(root, "var/lib/tend/state.journal"), journal);
  return { root, store: new StateStore(new LocalHostFiles(root, { kind: "system" }), "/var/lib/tend") };
}

describe("StateStore", () => {
  it("journals records as they change and folds them into state.json once, removing the journal", async () => {
    const { root, store: s } = await store();
    const state = await s.load();
    s.set(state, "service:web", { resource: WEB, provider: "runit", artifacts: [{ store: "file", path: "/etc/sv/tend-web/run", hash: null, writing: "sha256:1" }] });
    await s.flush(state);
    const journal = await readFile(join(root, "var/lib/tend/state.journal"), "utf8");
    expect(journal.split("\n").filter(Boolean).map((l) => JSON.parse(l).t)).toEqual(["begin", "set"]);
    // A second store (a rerun after a kill) sees the journalled record.
    const again = await new StateStore(new LocalHostFiles(root, { kind: "system" }), "/var/lib/tend").load();
    expect(again.resources["service:web"]?.artifacts[0]).toMatchObject({ hash: null, writing: "sha256:1" });
    await s.save(state);
    expect((await readdir(join(root, "var/lib/tend"))).sort()).toEqual(["state.json"]);
    expect(JSON.parse(await readFile(join(root, "var/lib/tend/state.json"), "utf8")).serial).toBe(1);
  });

  it("ignores the cut-short last line of a killed append, and a journal already folded in", async () => {
    const base = { version: 2, serial: 3, resources: {}, providers: {} };
    const set = JSON.stringify({ t: "set", key: "service:web", record: { resource: WEB, provider: "runit", artifacts: [] } });
    const torn = await store(base, `${JSON.stringify({ t: "begin", serial: 3 })}\n${set}\n{"t":"set","key":"service:x","rec`);
    expect(Object.keys((await torn.store.load()).resources)).toEqual(["service:web"]);
    const folded = await store(base, `${JSON.stringify({ t: "begin", serial: 2 })}\n${set}\n`);
    expect(Object.keys((await folded.store.load()).resources)).toEqual([]);
  });

  it("ignores the blocks of an unsynced append that a power cut left unwritten (NULs), and the lines after them", async () => {
    const base = { version: 2, serial: 3, resources: {}, providers: {} };
    const set = (key: string) => JSON.stringify({ t: "set", key, record: { resource: WEB, provider: "runit", artifacts: [] } });
    const holed = `${JSON.stringify({ t: "begin", serial: 3 })}\n${set("service:web")}\n${set("service:a").slice(0, 20)}${"\0".repeat(4096)}${set("service:b").slice(30)}\n${set("service:c")}\n`;
    expect(Object.keys((await (await store(base, holed)).store.load()).resources)).toEqual(["service:web"]);
    // Only NULs: an append whose size was synced and none of its bytes.
    expect(Object.keys((await (await store(base, "\0".repeat(100))).store.load()).resources)).toEqual([]);
    // A damaged line without NULs, lines after it, is not what a power cut leaves: refused.
    await expect((await store(base, `${JSON.stringify({ t: "begin", serial: 3 })}\n{"t":"set","k\n${set("service:c")}\n`)).store.load()).rejects.toThrow(/line 2 is not JSON/);
  });

  it.each([
    ["ends in a cut-short line", (begin: string, set: string) => `${begin}\n${set}\n{"t":"set","key":"service:x","rec`, 3],
    ["ends in blocks a power cut left unwritten", (begin: string, set: string) => `${begin}\n${set}\n${"\0".repeat(512)}`, 3],
    ["was folded into state.json already (a save killed before it removed it)", (begin: string, set: string) => `${begin}\n${set}\n`, 2],
    ["is empty (made, its first append killed before the write)", () => "", 2],
  ] as const)("never appends to a journal that %s: it folds it first, so the next load keeps this apply's records", async (_what, journal, serial) => {
    const base = { version: 2, serial: 3, resources: {}, providers: {} };
    const begin = JSON.stringify({ t: "begin", serial });
    const set = JSON.stringify({ t: "set", key: "service:web", record: { resource: WEB, provider: "runit", artifacts: [] } });
    const { root, store: s } = await store(base, journal(begin, set));
    const state = await s.load();
    s.set(state, "service:api", { resource: { ...WEB, name: "api" }, provider: "runit", artifacts: [] });
    await s.flush(state);
    s.set(state, "service:db", { resource: { ...WEB, name: "db" }, provider: "runit", artifacts: [] });
    await s.flush(state);
    // Killed here, before its own save: a rerun sees everything this apply recorded.
    const again = await new StateStore(new LocalHostFiles(root, { kind: "system" }), "/var/lib/tend").load();
    expect(Object.keys(again.resources).sort()).toEqual([...(serial === 3 ? ["service:web"] : []), "service:api", "service:db"].sort());
    const lines = (await readFile(join(root, "var/lib/tend/state.journal"), "utf8")).split("\n").filter(Boolean);
    expect(lines.map((l) => (JSON.parse(l) as { t: string }).t)).toEqual(["begin", "set"]);
  });

  it("refuses a state a newer tend wrote, saying so, and to run that tend", async () => {
    const { store: s } = await store({ version: 3, serial: 1, resources: {}, somethingNew: [] });
    const error = await s.load().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TEND_STATE_DAMAGED", hint: "Run the tend that wrote it, or a newer one; an older tend would lose what the newer one recorded" });
    expect((error as TendError).message).toMatch(/^the state file \S+state\.json cannot be read: it was written by a newer tend \(state version 3; this tend reads versions 1 and 2\)$/);
  });

  it.each([
    ["not JSON", "{", /is not JSON/],
    ["resources: null", { version: 2, serial: 1, resources: null }, /`resources` is not an object/],
    ["an unknown version", { version: "2", serial: 1, resources: {} }, /version is "2"/],
    ["a bad serial", { version: 2, serial: "x", resources: {} }, /`serial`/],
  ])("refuses a damaged state (%s) with TEND_STATE_DAMAGED and a hint", async (_what, content, message) => {
    const { store: s } = await store(content);
    const error = await s.load().catch((e: unknown) => e);
    expect(TendError.isInstance(error)).toBe(true);
    expect((error as TendError).code).toBe("TEND_STATE_DAMAGED");
    expect((error as TendError).message).toMatch(message);
    expect((error as TendError).hint).toContain("orphans");
  });

  it("reports a recorded path with .. or not absolute, and leaves it out so it is never acted on", async () => {
    const { store: s } = await store({
      version: 2,
      serial: 1,
      resources: {
        "service:web": {
          resource: WEB,
          provider: "runit",
          artifacts: [
            { store: "file", path: "/etc/sv/tend-web/../../../../etc/passwd", hash: "sha256:x" },
            { store: "file", path: "etc/shadow", hash: "sha256:x" },
            { store: "file", path: "/etc/sv/tend-web/run", hash: "sha256:y" },
          ],
        },
        "service:evil": { resource: { type: "service", name: "other" }, provider: "runit", artifacts: [] },
      },
    });
    const state = await s.load();
    expect(state.resources["service:web"]?.artifacts.map((a) => a.path)).toEqual(["/etc/sv/tend-web/run"]);
    expect(state.resources["service:evil"]).toBeUndefined();
    expect(s.problems).toEqual([
      expect.stringContaining('records the path "/etc/sv/tend-web/../../../../etc/passwd", which is not an absolute, normal path'),
      expect.stringContaining('records the path "etc/shadow"'),
      expect.stringContaining('"service:evil" holds service:other'),
    ]);
  });

  it("of a user, ignores what the state or its journal records outside the user's home", async () => {
    const inside = { store: "file", path: "/home/alice/.local/service/tend-web/run", hash: "sha256:a" };
    const record = (path: string) => ({ resource: WEB, provider: "runit", artifacts: [inside, { store: "file", path, hash: "sha256:b" }] });
    const root = await mkdtemp(join(tmpdir(), "tend-state-"));
    await mkdir(join(root, "home/alice/.local/state/tend"), { recursive: true });
    await writeFile(join(root, "home/alice/.local/state/tend/state.json"), JSON.stringify({ version: 2, serial: 1, resources: { "service:web": record("/etc/passwd") } }));
    const set = { t: "set", key: "service:api", record: { ...record("/home/alicex/run"), resource: { ...WEB, name: "api" } } };
    await writeFile(join(root, "home/alice/.local/state/tend/state.journal"), `${JSON.stringify({ t: "begin", serial: 1 })}\n${JSON.stringify(set)}\n`);
    const scope = { kind: "user", user: "alice", uid: 1000, gid: 1000, home: "/home/alice" } as const;
    const s = new StateStore(new LocalHostFiles(root, scope), "/home/alice/.local/state/tend", "/home/alice");
    const state = await s.load();
    expect(state.resources["service:web"]?.artifacts).toEqual([inside]);
    expect(state.resources["service:api"]?.artifacts).toEqual([inside]);
    expect(s.problems).toEqual([
      expect.stringContaining("records /etc/passwd, outside /home/alice"),
      expect.stringContaining("records /home/alicex/run, outside /home/alice"),
    ]);
    // The system's state has no such bound.
    const system = await store({ version: 2, serial: 1, resources: { "service:web": record("/etc/passwd") } });
    expect((await system.store.load()).resources["service:web"]?.artifacts).toHaveLength(2);
  });

  it("reads version 1 state files", async () => {
    const { store: s } = await store({ version: 1, serial: 4, resources: { "service:web": { resource: WEB, provider: "runit", artifacts: [{ store: "file", path: "/x", hash: "sha256:a" }] } } });
    const state = await s.load();
    expect(state.version).toBe(2);
    expect(state.resources["service:web"]?.artifacts).toEqual([{ store: "file", path: "/x", hash: "sha256:a" }]);
  });

  it.each([
    ["state.json", "a folder", (path: string) => mkdir(path)],
    ["state.json", "a symlink (-> /etc/passwd)", (path: string) => symlink("/etc/passwd", path)],
    ["state.journal", "a device, FIFO or socket", (path: string) => execFileAsync("mkfifo", [path])],
  ] as const)("refuses a %s that is %s, not a file, as damaged: never read as no state", async (name, what, make) => {
    const { root, store: s } = await store(name === "state.journal" ? { version: 2, serial: 0, resources: {} } : undefined);
    await make(join(root, "var/lib/tend", name));
    const error = await s.load().catch((e: unknown) => e);
    expect((error as TendError).code).toBe("TEND_STATE_DAMAGED");
    expect((error as TendError).message).toBe(`the state file ${join(root, "var/lib/tend", name)} is damaged: it is ${what}, not a file`);
  });

  it("refuses a journal whose middle is damaged", async () => {
    const { store: s } = await store({ version: 2, serial: 0, resources: {} }, `${JSON.stringify({ t: "begin", serial: 0 })}\nnot json\n{"t":"drop","key":"x"}\n`);
    await expect(s.load()).rejects.toThrow(/state.journal is damaged: line 2 is not JSON/);
  });

  it("journals a record set several times before a flush once, at its last value", async () => {
    const { root, store: s } = await store();
    const state = await s.load();
    const record = (hash: string | null, writing?: string) => ({ resource: WEB, provider: "runit", artifacts: [{ store: "file", path: "/etc/sv/tend-web/run", hash, ...(writing ? { writing } : {}) }] });
    s.set(state, "service:web", record(null, "sha256:1"));
    s.set(state, "service:gone", record("sha256:0"));
    s.set(state, "service:web", record("sha256:1"));
    s.drop(state, "service:gone");
    await s.flush(state);
    const lines = (await readFile(join(root, "var/lib/tend/state.journal"), "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.t, l.key])).toEqual([["begin", undefined], ["set", "service:web"], ["drop", "service:gone"]]);
    expect(lines[1].record.artifacts[0]).toEqual({ store: "file", path: "/etc/sv/tend-web/run", hash: "sha256:1" });
    const again = await new StateStore(new LocalHostFiles(root, { kind: "system" }), "/var/lib/tend").load();
    expect(again.resources).toEqual(state.resources);
  });

  it("writes a journal entry of megabytes a line at a time, and it replays to the same state", async () => {
    const { root, store: s } = await store();
    const state = await s.load();
    const artifacts = Array.from({ length: 20 }, (_, i) => ({ store: "file", path: `/etc/sv/tend-web/${"x".repeat(100)}${i}`, hash: null, writing: `sha256:${"0".repeat(64)}` }));
    for (let i = 0; i < 800; i += 1) s.set(state, `service:web${i}`, { resource: { ...WEB, name: `web${i}` }, provider: "runit", artifacts });
    s.noteProviders(state);
    await s.flush(state);
    const journal = await readFile(join(root, "var/lib/tend/state.journal"), "utf8");
    expect(journal.length).toBeGreaterThan(2 << 20);
    const types = journal.split("\n").filter(Boolean).map((l) => JSON.parse(l).t);
    expect(types).toEqual(["begin", ...Array(800).fill("set"), "providers"]);
    const again = await new StateStore(new LocalHostFiles(root, { kind: "system" }), "/var/lib/tend").load();
    expect(again).toEqual(state);
  });

  it("appends to an existing journal without a second begin line", async () => {
    const { root, store: s } = await store({ version: 2, serial: 0, resources: {} }, `${JSON.stringify({ t: "begin", serial: 0 })}\n`);
    const state = await s.load();
    s.drop(state, "service:gone");
    await s.flush(state);
    await appendFile(join(root, "var/lib/tend/state.journal"), "");
    const lines = (await readFile(join(root, "var/lib/tend/state.journal"), "utf8")).split("\n").filter(Boolean);
    expect(lines.map((l) => JSON.parse(l).t)).toEqual(["begin", "drop"]);
  });
});
