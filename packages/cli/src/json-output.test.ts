import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Ajv from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { imageRoot } from "./__fixtures__/image-root.js";

const run = promisify(execFile);
const CLI = new URL("../dist/bin.js", import.meta.url).pathname;
const SCHEMA = new URL("../../../docs/json-schema.json", import.meta.url);

async function tend(args: string[], cwd: string, env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const SPEC = [
  "tend: v1alpha1\ntype: File\nname: conf\npath: /etc/web/web.conf\ncontent: \"port = 1\\n\"\n",
  "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web/bin/server\nenv: { API_TOKEN: s3cr3t-value, LEVEL: info }\nrestartOn: [\"File[conf]\"]\n",
].join("---\n");

let validate: (value: unknown) => boolean;
let errorsOf: () => unknown;
let dir: string;
let root: string;

beforeAll(async () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const check = ajv.compile(JSON.parse(await readFile(SCHEMA, "utf8")));
  validate = (value) => check(value) as boolean;
  errorsOf = () => check.errors;
  dir = await mkdtemp(join(tmpdir(), "tend-json-"));
  root = await imageRoot(dir, "root");
  await writeFile(join(dir, "tend.yaml"), SPEC);
});

function document(stdout: string) {
  const parsed = JSON.parse(stdout) as Record<string, unknown>;
  expect(validate(parsed), JSON.stringify(errorsOf(), null, 2)).toBe(true);
  return parsed;
}

describe("--json on every command: one document on stdout, valid by docs/json-schema.json", () => {
  it.each([
    ["validate", ["validate", "--init", "runit"]],
    ["providers", ["providers", "--init", "runit"]],
    ["render", ["render", "--init", "runit"]],
    ["plan", ["plan", "--init", "runit", "--root", "ROOT", "--diff"]],
    ["apply", ["apply", "--init", "runit", "--root", "ROOT"]],
    ["observe", ["observe", "--init", "runit", "--root", "ROOT"]],
    ["help", ["help"]],
  ])("%s", async (command, args) => {
    const result = await tend([...args.map((a) => (a === "ROOT" ? root : a)), "--json"], dir);
    expect(result.stderr).toBe("");
    const doc = document(result.stdout);
    expect(doc).toMatchObject({ formatVersion: 1, command, ok: true, exitCode: 0, diagnostics: [] });
    expect(doc.result).toBeDefined();
  });

  it.each(["plan", "apply"])("%s --hosts: one entry per host, an unreachable host failing the run", async (command) => {
    const inventory = join(dir, "tend.hosts.yaml");
    await writeFile(inventory, "hosts:\n  nowhere:\n    ssh: { ProxyCommand: \"false\", BatchMode: \"yes\" }\n");
    const result = await tend([command, "--hosts", inventory, "--json"], dir);
    expect(result.code).toBe(1);
    const doc = document(result.stdout);
    expect(doc).toMatchObject({ command, ok: false, exitCode: 1, result: { hosts: [{ name: "nowhere", init: null, status: "unreachable", errors: [{ code: "TEND_FLEET_UNREACHABLE" }] }] } });
  });

  it("puts errors in the document as diagnostics, with location and hint, and still exits non-zero", async () => {
    const bad = await mkdtemp(join(tmpdir(), "tend-json-bad-"));
    await writeFile(join(bad, "tend.yaml"), "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\nrestart: sometimes\n");
    const result = await tend(["plan", "--init", "runit", "--root", await imageRoot(bad, "r"), "--json"], bad);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    const doc = document(result.stdout);
    expect(doc).toMatchObject({ ok: false, exitCode: 1, diagnostics: [{ code: "TEND_INVALID_FIELD", severity: "error", location: { line: 5, resource: "service:web", field: "restart" } }] });
    const usage = await tend(["plan", "--frobnicate", "--json"], bad);
    expect(document(usage.stdout)).toMatchObject({ command: "unknown", exitCode: 1, diagnostics: [{ code: "TEND_USAGE" }] });
  });

  it("streams apply as JSON lines while it happens, each valid, ending in done", async () => {
    const streamRoot = await imageRoot(dir, "stream-root");
    const result = await tend(["apply", "--init", "runit", "--root", streamRoot, "--json-stream"], dir);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(["plan", "step", "progress", "done"]));
    expect(events.at(-1)).toMatchObject({ event: "done", formatVersion: 1, command: "apply", ok: true, exitCode: 0 });
    for (const event of events.slice(0, -1)) expect(event.formatVersion).toBe(1);
    const { event: _event, ...done } = events.at(-1)!;
    expect(validate(done), JSON.stringify(errorsOf())).toBe(true);
  });
});

describe("plan --diff", () => {
  it("shows how each file changes, with secret env values masked", async () => {
    const diffRoot = await imageRoot(dir, "diff-root");
    await tend(["apply", "--init", "runit", "--root", diffRoot], dir);
    await writeFile(join(dir, "changed.yaml"), SPEC.replace("port = 1", "port = 2").replace("s3cr3t-value", "n3w-s3cr3t"));
    const result = await tend(["plan", "-f", "changed.yaml", "--init", "runit", "--root", diffRoot, "--diff", "--no-color"], dir);
    expect(result.stdout).toContain("--- a/etc/web/web.conf\n+++ b/etc/web/web.conf\n");
    expect(result.stdout).toContain('-port = 1\n+port = 2\n');
    expect(result.stdout).toContain("-export API_TOKEN=********(was)\n+export API_TOKEN=********(now)\n");
    expect(result.stdout).not.toContain("====");
    expect(result.stdout).not.toContain("s3cr3t");
  });

  it("shows a hand edit as drift, diffed against what apply writes back, with secret env values masked", async () => {
    const driftRoot = await imageRoot(dir, "drift-root");
    await tend(["apply", "--init", "runit", "--root", driftRoot], dir);
    const run = join(driftRoot, "etc/sv/tend-web/run");
    const written = await readFile(run, "utf8");
    expect(written).toContain("export API_TOKEN=");
    await writeFile(run, written.replace("s3cr3t-value", "h4nd-s3cr3t").replace("LEVEL=info", "LEVEL=debug"));
    const result = await tend(["plan", "--init", "runit", "--root", driftRoot, "--diff", "--no-color"], dir);
    expect(result.stdout).toContain("service:web drifted: /etc/sv/tend-web/run was edited");
    expect(result.stdout).toContain("--- a/etc/sv/tend-web/run\n+++ b/etc/sv/tend-web/run\n");
    expect(result.stdout).toContain("-export API_TOKEN=********(was)\n");
    expect(result.stdout).toContain("+export API_TOKEN=********(now)\n");
    expect(result.stdout).toMatch(/-export LEVEL=.?debug.?\n/);
    expect(result.stdout).toMatch(/\+export LEVEL=.?info.?\n/);
    expect(result.stdout).not.toContain("s3cr3t");
  });
});

describe("conventions operators expect", () => {
  it("refuses an unknown command or flag, or another command's flag, with a suggestion", async () => {
    expect((await tend(["paln"], dir)).stderr).toContain("did you mean `tend plan`?");
    expect((await tend(["plan", "--dif"], dir)).stderr).toContain("did you mean `--diff`?");
    const other = await tend(["validate", "--adopt"], dir);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("`--adopt` is a flag of `tend plan`, not of `tend validate`");
    expect((await tend(["validate", "--lock-timeout", "5"], dir)).stderr).toContain("is a flag of `tend apply`");
    expect((await tend(["-v"], dir)).stdout).toMatch(/^tend \d+\.\d+\.\d+/);
  });

  it("colours by --color/--no-color, FORCE_COLOR, NO_COLOR and TERM=dumb", async () => {
    const esc = "\u001b[";
    const colourRoot = await imageRoot(dir, "colour");
    const plan = (extra: string[], env: Record<string, string>) => tend(["plan", "--init", "runit", "--root", colourRoot, ...extra], dir, env);
    expect((await plan([], { FORCE_COLOR: "1" })).stdout).toContain(esc);
    expect((await plan([], { FORCE_COLOR: "0" })).stdout).not.toContain(esc);
    expect((await plan(["--color"], { NO_COLOR: "1" })).stdout).toContain(esc);
    expect((await plan(["--no-color"], { FORCE_COLOR: "1" })).stdout).not.toContain(esc);
    expect((await plan([], { NO_COLOR: "1" })).stdout).not.toContain(esc);
    expect((await plan([], { TERM: "dumb" })).stdout).not.toContain(esc);
  });

  it("ends quietly when the reader of its output goes away (tend render | head -1)", async () => {
    const child = spawn("/bin/sh", ["-c", `${process.execPath} ${CLI} render --init all | head -1; echo "status \${PIPESTATUS:-}"`], { cwd: dir });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    await new Promise((r) => child.on("exit", r));
    expect(err).not.toContain("EPIPE");
    expect(err).not.toContain("    at ");
  });

  it("exits non-zero when it printed an error: render --init all with a resource some init cannot express", async () => {
    const hatch = await mkdtemp(join(tmpdir(), "tend-render-"));
    await writeFile(join(hatch, "tend.yaml"), "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\nsystemd: { MemoryMax: 512M }\n");
    const result = await tend(["render", "--init", "all", "--no-color"], hatch);
    expect(result.stderr).toContain("error TEND_UNSUPPORTED_FIELD");
    expect(result.code).toBe(1);
  });
});
