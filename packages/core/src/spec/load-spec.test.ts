import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { chown, mkdir, mkdtemp, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSpec, openSpec } from "./load-spec.js";
import { MAX_INPUT_BYTES } from "../files/input-file.js";
import { ContentCache } from "../cache/content-cache.js";
import { findSpec } from "./find-spec.js";
import { TendError } from "../errors/tend-error.js";
import type { HostFacts } from "../contract/host.js";

const HOST: HostFacts = { name: "h", init: "runit", os: "linux", arch: "x64", user: "root", home: "/root" };

/** A cache of its own, in a new folder. */
const cache = async () => ContentCache.open({ TEND_CACHE_DIR: join(await mkdtemp(join(tmpdir(), "tend-spec-cache-")), "cache") })!;

async function specFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "tend-spec-"));
  await writeFile(join(dir, name), text);
  return join(dir, name);
}

describe("loading specs", () => {
  it("reads Datum-style YAML documents in both reference forms", async () => {
    const file = await specFile(
      "tend.yaml",
      `tend: v1alpha1
type: File
name: nginx-config
path: /etc/nginx/nginx.conf
content: "events {}\\n"
---
tend: v1alpha1
type: Service
name: nginx
requires:
  - File[nginx-config]
restartOn:
  - file:nginx-config
desired:
  state: running
  enabled: true
`,
    );
    const spec = await loadSpec(file, HOST);
    expect(spec.resources.map((r) => `${r.type}:${r.name}`)).toEqual(["file:nginx-config", "service:nginx"]);
  });

  it("points a YAML error at the file, line, resource and field", async () => {
    const file = await specFile("tend.yaml", "tend: v1alpha1\ntype: Service\nname: web\nexec: x\nrestart: sometimes\n");
    const error = await loadSpec(file, HOST).catch((e: unknown) => e);
    expect(TendError.isInstance(error)).toBe(true);
    expect((error as TendError).location).toMatchObject({ file, line: 5, resource: "service:web", field: "restart" });
  });

  it("passes over documents with nothing written in them, and refuses one that holds a value other than a resource", async () => {
    const web = "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n";
    const names = async (text: string) => (await loadSpec(await specFile("tend.yaml", text), HOST)).resources.map((r) => r.name);
    expect(await names(`---\n${web}---\n`)).toEqual(["web"]);
    expect(await names(`${web}---\n# db, for later\n---\n---  # nothing\n${web.replace("web", "api")}`)).toEqual(["web", "api"]);
    for (const value of ["~", "null", "web", "[web]"]) {
      const file = await specFile("tend.yaml", `${web}---\n${value}\n`);
      await expect(loadSpec(file, HOST)).rejects.toMatchObject({ message: "each YAML document must be one resource (a mapping)", location: { line: 6 } });
    }
  });

  it("reads a File's mode written without quotes as the octal digits written, as chmod would", async () => {
    const file = (mode: string) => `tend: v1alpha1\ntype: File\nname: f${mode.replace(/\W/g, "")}\npath: /etc/f${mode.replace(/\W/g, "")}\ncontent: x\nmode: ${mode}\n`;
    const spec = await loadSpec(await specFile("tend.yaml", ["0644", "0o755", "640", "04755", '"0600"'].map(file).join("---\n")), HOST);
    expect(spec.resources.map((r) => (r as { mode?: string }).mode)).toEqual(["0644", "0755", "640", "04755", "0600"]);
    await expect(loadSpec(await specFile("tend.yaml", file("0999")), HOST)).rejects.toMatchObject({
      message: expect.stringContaining("has an invalid `mode`: must be an octal mode in quotes, such as `\"0644\"`: as a number its digits are not octal"),
      location: { line: 6 },
    });
  });

  it("refuses a document without tend: v1alpha1", async () => {
    const file = await specFile("tend.yaml", "type: Service\nname: web\n");
    await expect(loadSpec(file, HOST)).rejects.toThrow("each document needs `tend: v1alpha1`");
  });

  it("loads a tend.config.ts anywhere on disk, with no node_modules beside it, and passes host facts", async () => {
    const file = await specFile(
      "tend.config.ts",
      `import { defineConfig, service, timer } from "@tend/core";
import type { HostFacts } from "@tend/core";
const extra = (host: HostFacts) => host.init === "systemd" ? [service("only-systemd", { exec: "x" })] : [];
export default defineConfig((host) => [
  service("syncthing", { exec: "syncthing serve --no-browser", user: true, restart: "always" }),
  timer("gc", { exec: "/usr/local/bin/gc", schedule: "@weekly" }),
  ...extra(host),
  host.init === "runit" && service("runit-only", { exec: "y" }),
]);
`,
    );
    const spec = await loadSpec(file, HOST);
    expect(spec.resources.map((r) => r.name)).toEqual(["syncthing", "gc", "runit-only"]);
  });

  it("accepts a plain list from an .mjs spec", async () => {
    const file = await specFile("tend.config.mjs", `export default [{ type: "service", name: "web", exec: "x" }];\n`);
    expect((await loadSpec(file, HOST)).resources).toHaveLength(1);
  });

  it("points a module spec's validation error at the file", async () => {
    const file = await specFile("tend.config.mjs", `import { service } from "@tend/core";\nexport default [service("my service", { exec: "x" })];\n`);
    const error = (await loadSpec(file, HOST).catch((e: unknown) => e)) as TendError;
    expect(error.message).toContain("service name `my service` may only hold");
    expect(error.location.file).toBe(file);
  });

  it("finds the spec in the current folder, or says where it looked", async () => {
    const file = await specFile("tend.yaml", "");
    expect(findSpec(undefined, join(file, ".."))).toBe(file);
    expect(() => findSpec(undefined, "/")).toThrow("no spec here: looked for tend.config.ts");
  });
});

describe("loading specs that misbehave", () => {
  it("names the line of an alias whose anchor is in another document, and a billion laughs", async () => {
    const cross = await specFile("tend.yaml", "tend: v1alpha1\ntype: Service\nname: a\nexec: /a\nenv: &e { A: '1' }\n---\ntend: v1alpha1\ntype: Service\nname: b\nexec: /b\nenv: *e\n");
    const error = (await loadSpec(cross, HOST).catch((e: unknown) => e)) as TendError;
    expect(error.message).toContain("alias *e names no anchor earlier in the same document");
    expect(error.location.line).toBe(11);
    const laughs = await specFile("tend.yaml", "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n");
    expect(((await loadSpec(laughs, HOST).catch((e: unknown) => e)) as TendError).message).toContain("its aliases expand to too much data");
  });

  it("refuses a key given twice and a text nested beyond reason, each as the spec's error at its line", async () => {
    const twice = await specFile("tend.yaml", "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/a\nexec: /opt/b\n");
    const dup = (await loadSpec(twice, HOST).catch((e: unknown) => e)) as TendError;
    expect(dup).toMatchObject({ code: "TEND_SPEC", message: `${twice} is not valid YAML: Map keys must be unique`, location: { line: 5 } });
    const deep = await specFile("tend.yaml", `tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/a\nenv:\n  A: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`);
    const nested = (await loadSpec(deep, HOST).catch((e: unknown) => e)) as TendError;
    expect(nested).toMatchObject({ code: "TEND_SPEC", message: `${deep} is not valid YAML: it nests too deeply` });
  });

  it("refuses, before reading it, a spec that is a FIFO, a device, a folder or too big", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-spec-kinds-"));
    const fifo = join(dir, "fifo.yaml");
    execFileSync("mkfifo", [fifo]);
    const zero = join(dir, "zero.yaml");
    await symlink("/dev/zero", zero);
    const folder = join(dir, "folder.yaml");
    await mkdir(folder);
    const big = join(dir, "big.yaml");
    // Sparse: its size is what counts, and nothing of it is read.
    await writeFile(big, "");
    await truncate(big, MAX_INPUT_BYTES + 1);
    const failure = async (file: string) => (await openSpec(file).catch((e: unknown) => e)) as TendError;
    expect(await failure(fifo)).toMatchObject({ code: "TEND_SPEC", message: `${fifo} is not a regular file (a device, FIFO or socket); tend reads a spec only from a file` });
    expect(await failure(zero)).toMatchObject({ code: "TEND_SPEC", message: `${zero} is not a regular file (a device, FIFO or socket); tend reads a spec only from a file` });
    expect(await failure(folder)).toMatchObject({ code: "TEND_SPEC", message: `${folder} is a folder, not a spec file` });
    expect(await failure(big)).toMatchObject({ code: "TEND_SPEC", message: `${big} is 16.0 MiB; a spec file may be at most 16.0 MiB` });
    await truncate(big, MAX_INPUT_BYTES);
    // At the limit it is read (and refused for what it holds).
    expect((await failure(big)).message).not.toContain("MiB");
  });

  it.runIf(process.getuid?.() === 0)("as root, takes a YAML spec the --user scope's own user can change, never a module of theirs", async () => {
    const yaml = await specFile("alice.yaml", "tend: v1alpha1\ntype: File\nname: motd\npath: /etc/motd\ncontent: hi\n");
    const module = await specFile("tend.config.mjs", "export default [];\n");
    await chown(yaml, 65534, 65534);
    await chown(module, 65534, 65534);
    const refused = async (file: string, scopeUser?: string) => ((await openSpec(file, scopeUser ? { scopeUser } : {}).catch((e: unknown) => e)) as TendError).message;
    expect(await refused(yaml)).toBe(`refusing to read ${yaml} as root: ${yaml} belongs to uid 65534, who could change what root would run`);
    expect(await refused(yaml, "root")).toContain("belongs to uid 65534");
    expect((await openSpec(yaml, { scopeUser: "nobody" })).file).toBe(yaml);
    // Its code would run as root.
    expect(await refused(module, "nobody")).toBe(`refusing to read ${module} as root: ${module} belongs to uid 65534, who could change what root would run`);
  });

  it("refuses bytes that are not UTF-8 at their line, never writing U+FFFD in their place", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-spec-latin1-"));
    const file = join(dir, "tend.yaml");
    await writeFile(file, Buffer.concat([Buffer.from('tend: v1alpha1\ntype: File\nname: motd\npath: /etc/motd\ncontent: "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]));
    const error = (await openSpec(file).catch((e: unknown) => e)) as TendError;
    expect(error).toMatchObject({ code: "TEND_SPEC", message: `${file} is not UTF-8 text: line 5 holds bytes that are not UTF-8 (a file saved as Latin-1?)`, location: { line: 5 } });
    await writeFile(file, 'tend: v1alpha1\ntype: File\nname: motd\npath: /etc/motd\ncontent: "café \uFFFD"\n');
    expect((await loadSpec(file, HOST)).resources[0]).toMatchObject({ content: "café \uFFFD" });
  });

  it("keeps aliases within one document working", async () => {
    const file = await specFile("tend.yaml", "tend: v1alpha1\ntype: Service\nname: a\nexec: /a\nenv: &e { A: '1' }\ndescription: x\n");
    expect((await loadSpec(file, HOST)).resources).toHaveLength(1);
  });

  it("says what a module spec must export when it exports null, a number or nothing, loaded anew and from the cache", async () => {
    const shared = await cache();
    for (const text of ["export default null;\n", "export default 42;\n", "export default undefined;\n", "export const x = 1;\n"]) {
      const file = await specFile("tend.config.ts", text);
      for (const from of [undefined, shared, shared]) {
        const error = await openSpec(file, from ? { cache: from } : {}).then((opened) => opened.build(HOST)).then(() => undefined, (e: unknown) => e);
        expect(error, text).toMatchObject({ code: "TEND_SPEC", message: `${file} must export default defineConfig(host => [...]) or a list of resources` });
      }
    }
  });

  it("flattens lists nested as deep or as long as a spec makes them, and names a list that holds itself or a trap that throws", async () => {
    const nested = await specFile(
      "tend.config.ts",
      `import { file } from "@tend/core";
let deep: unknown[] = [file("deep", { path: "/etc/deep", content: "" })];
for (let i = 0; i < 200_000; i++) deep = [deep];
const common = [file("common", { path: "/etc/common", content: "" })];
export default [deep, [Array.from({ length: 200_000 }, () => null)], common, [false, undefined]];
`,
    );
    expect((await loadSpec(nested, HOST)).resources.map((r) => r.name)).toEqual(["deep", "common"]);
    const itself = await specFile("tend.config.ts", `const list: unknown[] = [[]];
(list[0] as unknown[]).push(list);
export default list;
`);
    expect(await loadSpec(itself, HOST).catch((e: unknown) => e)).toMatchObject({ code: "TEND_SPEC", message: `${itself} builds a resource list that holds itself: a list is one of its own items, at any depth` });
    const trap = await specFile("tend.config.ts", `export default new Proxy([1], {
  get(target, key) {
    if (key === "0") throw new Error("no item here");
    return Reflect.get(target, key);
  },
});
`);
    expect(await loadSpec(trap, HOST).catch((e: unknown) => e)).toMatchObject({ code: "TEND_SPEC", message: `${trap} failed while its resource list was read: no item here`, location: { line: 3 } });
  });

  it("reports whatever a module spec throws, Error or not", async () => {
    const file = await specFile("tend.config.mjs", `export default () => { throw "boom"; };\n`);
    await expect(loadSpec(file, HOST)).rejects.toThrow("failed while building the resource list: boom");
    const object = await specFile("tend.config.mjs", `export default () => { throw { reason: 42 }; };\n`);
    await expect(loadSpec(object, HOST)).rejects.toThrow('it threw {"reason":42}');
  });

  it.each([
    ["a getter that throws", `export default [{ type: "service", name: "web", get exec() { throw new Error("boom getter"); } }];\n`, "failed while tend read the resources it built: boom getter", 1],
    ["a getter that throws a number", `export default [{ type: "service", name: "web", exec: "/x", env: Object.create(null, { A: { get() { throw 5; }, enumerable: true } }) }];\n`, "failed while tend read the resources it built: it threw 5", undefined],
    ["a Proxy whose trap throws", `export default [new Proxy({}, { ownKeys() { throw new Error("trap"); }, get() { throw new Error("trap"); } })];\n`, "failed while tend read the resources it built: trap", 1],
    ["an object without a prototype, thrown", `export default () => { throw Object.create(null); };\n`, "failed while building the resource list: it threw {}", undefined],
  ])("reports %s as the spec's error, never TEND_INTERNAL, with and without a cache", async (_what, text, message, line) => {
    const file = await specFile("tend.config.mjs", text);
    for (const options of [{}, { cache: await cache() }]) {
      const error = (await (await openSpec(file, options)).build(HOST).catch((e: unknown) => e)) as TendError;
      expect(TendError.isInstance(error), String(error)).toBe(true);
      expect([error.code, error.message, error.location.line]).toEqual(["TEND_SPEC", `${file} ${message}`, line]);
    }
  });

  it("refuses a resource that holds itself at its field, as any field a resource lacks", async () => {
    const file = await specFile("tend.config.mjs", `const web = { type: "service", name: "web", exec: "/x" }; web.self = web;\nexport default [web];\n`);
    const error = (await loadSpec(file, HOST).catch((e: unknown) => e)) as TendError;
    expect([error.code, error.location.field]).toEqual(["TEND_INVALID_FIELD", "self"]);
  });

  it("gives up on a spec that never settles, at the deadline, with TEND_SPEC_TIMEOUT", async () => {
    const file = await specFile("tend.config.mjs", `export default () => new Promise(() => {});\n`);
    const saved = process.env.TEND_SPEC_TIMEOUT;
    process.env.TEND_SPEC_TIMEOUT = "0.2";
    try {
      const error = (await loadSpec(file, HOST).catch((e: unknown) => e)) as TendError;
      expect(error.code).toBe("TEND_SPEC_TIMEOUT");
    } finally {
      if (saved === undefined) delete process.env.TEND_SPEC_TIMEOUT;
      else process.env.TEND_SPEC_TIMEOUT = saved;
    }
  });
});

describe("errors from a TypeScript spec point at the file and line", () => {
  it("names the line of the service() call whose fields are wrong, suggests a misspelt field, and reports every problem in one run", async () => {
    const file = await specFile(
      "tend.config.ts",
      `import { defineConfig, service } from "@tend/core";
interface Port { port: number }
const p: Port = { port: 1 };
export default defineConfig(() => [
  service("web", { exec: "/opt/web", restart: "sometimes" as never }),
  service("api", { exec: "/opt/api", envv: { A: "1" } } as never),
  service("worker", { exec: "/opt/worker", requires: ["service:nope"] }),
]);
`,
    );
    const error = (await loadSpec(file, HOST).catch((e: unknown) => e)) as TendError & { errors: TendError[] };
    expect(error.errors.map((e) => [e.location.line, e.message])).toEqual([
      [5, "service:web has an invalid `restart`: must be one of no, on_failure, always, not `sometimes`"],
      [6, "service:api has an invalid `envv`: is not a field of service; did you mean `env`?"],
      [7, "service:worker lists `service:nope` in requires, but the spec declares no such resource"],
    ]);
  });

  it("names the line a spec throws at, and the line of a syntax error", async () => {
    const thrown = await specFile("tend.config.ts", `import { defineConfig } from "@tend/core";\ntype X = { a: number };\nexport default defineConfig(() => {\n  throw new Error("boom");\n});\n`);
    expect(((await loadSpec(thrown, HOST).catch((e: unknown) => e)) as TendError).location).toMatchObject({ file: thrown, line: 4 });
    const syntax = await specFile("tend.config.ts", `import { defineConfig } from "@tend/core";\nexport default defineConfig(() => [\n  { type: "service", name: "x" ,,\n]);\n`);
    expect(((await loadSpec(syntax, HOST).catch((e: unknown) => e)) as TendError).location).toMatchObject({ file: syntax, line: 3 });
  });

  it("loads a spec that imports @tend/core/contract", async () => {
    const file = await specFile("tend.config.mjs", `import { MANAGED_HEADER } from "@tend/core/contract";\nexport default [{ type: "file", name: "h", path: "/etc/h", content: MANAGED_HEADER }];\n`);
    expect((await loadSpec(file, HOST)).resources).toHaveLength(1);
  });

  it("gives a spec the very copy of core that loads it, not a second one (one TendError class)", async () => {
    const file = await specFile(
      "tend.config.ts",
      `import { TendError } from "@tend/core";\nimport { errors } from "@tend/core/contract";\n(globalThis as any).__tendSpecClasses = { TendError, made: errors.spec("x") };\nexport default [];\n`,
    );
    await loadSpec(file, HOST);
    const seen = (globalThis as { __tendSpecClasses?: { TendError: unknown; made: unknown } }).__tendSpecClasses!;
    expect(seen.TendError).toBe(TendError);
    expect(seen.made instanceof TendError).toBe(true);
  });
});

describe("a config module's start-up work kept small", () => {
  const cachedSpecs = (dir: string) => {
    try {
      return readdirSync(join(dir, "specs")).length;
    } catch {
      return 0;
    }
  };

  it("validates the same data once: the next run reads the validated resources, other data is validated", async () => {
    const file = await specFile("tend.config.ts", `import { service } from "@tend/core";\nexport default () => [service("web", { exec: process.env.TEND_TEST_EXEC! })];\n`);
    const store = await cache();
    process.env.TEND_TEST_EXEC = "/bin/web";
    const first = await (await openSpec(file, { cache: store })).build(HOST);
    expect(cachedSpecs(store.dir)).toBe(1);
    const again = await (await openSpec(file, { cache: store })).build(HOST);
    expect(again.resources).toEqual(JSON.parse(JSON.stringify(first.resources)));
    process.env.TEND_TEST_EXEC = "relative/web";
    await expect((await openSpec(file, { cache: store })).build(HOST)).rejects.toThrow("exec");
    process.env.TEND_TEST_EXEC = "/bin/other";
    expect((await (await openSpec(file, { cache: store })).build(HOST)).resources[0]).toMatchObject({ exec: "/bin/other" });
    expect(cachedSpecs(store.dir)).toBe(2);
    delete process.env.TEND_TEST_EXEC;
  });

  it("never takes a cached validation for data that is not plain (a function, a class) or differs only in undefined", async () => {
    const store = await cache();
    const plain = await specFile("tend.config.mjs", `export default [{ type: "service", name: "web", exec: "/bin/web" }];\n`);
    await (await openSpec(plain, { cache: store })).build(HOST);
    const withUndefined = await specFile("tend.config.mjs", `export default [{ type: "service", name: "web", exec: "/bin/web", typo: undefined }];\n`);
    await expect((await openSpec(withUndefined, { cache: store })).build(HOST)).rejects.toThrow("typo");
    const withDate = await specFile("tend.config.mjs", `export default [{ type: "service", name: "web", exec: "/bin/web", description: new Date(0) }];\n`);
    await expect((await openSpec(withDate, { cache: store })).build(HOST)).rejects.toThrow("description");
    expect(cachedSpecs(store.dir)).toBe(1);
  });

  it("gives a spec core's schemas wherever it uses them: at import, while building, even when it catches the first try", async () => {
    const atImport = await specFile(
      "tend.config.ts",
      `import { ServiceSchema } from "@tend/core";\nconst base = ServiceSchema.parse({ type: "service", name: "web", exec: "/bin/web" });\nexport default [base];\n`,
    );
    expect((await loadSpec(atImport, HOST)).resources[0]).toMatchObject({ name: "web", exec: "/bin/web" });
    const whileBuilding = await specFile(
      "tend.config.ts",
      `import { defineConfig, validateSpec } from "@tend/core";\nexport default defineConfig(() => validateSpec([{ type: "service", name: "api", exec: "/bin/api" }]));\n`,
    );
    expect((await loadSpec(whileBuilding, HOST)).resources[0]).toMatchObject({ name: "api" });
    const caught = await specFile(
      "tend.config.ts",
      `import * as core from "@tend/core";\nlet known = "none";\ntry { known = typeof core.TimerSchema.parse; } catch {}\nexport default [{ type: "service", name: known, exec: "/bin/x" }];\n`,
    );
    expect((await loadSpec(caught, HOST)).resources[0]).toMatchObject({ name: "function" });
  });
});
