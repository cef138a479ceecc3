import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startHost, type TestHost } from "@tend/testkit/harness";
import { shellQuote } from "@tend/core/contract";
import { build } from "@tend/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderProgram } from "../../examples/tend-provider-supervisord/src/render-program.js";
import { DEMO, demoLog, demoStarts } from "../support/demo-daemon.js";
import { EXEC_FORMS, hupsReceived, livePids } from "../support/exec-forms.js";
import { GREETING } from "../support/greeting.js";
import { coreCopies, fillNpmCache, installedTend, installOffline, npmPack, offlineMounts, packWorkspace } from "../support/packed-install.js";
import { GUARD, ONCE, WEB } from "../support/restart-policy-services.js";
import { doc, spec } from "../support/spec-documents.js";

/**
 * A provider for an init core has never heard of, installed as a user installs it: @tend/core,
 * @tend/cli and the third-party tend-provider-supervisord (examples/, packed with npm as its author
 * would) from tarballs into a clean prefix on a supervisord host with no network, then driven
 * through the installed `tend` against the real supervisord (Debian's supervisor, PID 1).
 */

const SPEC = "/spec/tend.yaml";
const EXAMPLE = fileURLToPath(new URL("../../examples/tend-provider-supervisord/", import.meta.url));

/** Carried in `environment=`: no `"`, no quote at either end, no whitespace before `;` or `#`. */
const PLAIN_ENOUGH = "100% $HOME it's `id`; back\\slash a#1";
const QUOTED = doc(`type: Service\nname: quoted\nexec: ${JSON.stringify(EXEC_FORMS.quotedArgs("quoted"))}\nrestart: always\nenv:\n  PLAIN: ${JSON.stringify(PLAIN_ENOUGH)}`);
const PIPED = doc(`type: Service\nname: piped\nexec: ${JSON.stringify(EXEC_FORMS.pipeline("piped"))}\nrestart: always`);
const LOOPER_CONFIG = (version: string) => doc(`type: File\nname: looper-config\npath: /etc/looper.conf\ncontent: ${version}`);
const LOOPER = doc(`type: Service\nname: looper\nexec: ${JSON.stringify(EXEC_FORMS.shellLoop("looper"))}\nrestart: always\nreloadSignal: HUP\nreloadOn: [file:looper-config]`);
const PARKED = doc("type: Service\nname: parked\nexec: /opt/demo/bin/demo parked\nrestart: always\ndesired: {state: stopped, enabled: true}");

/** Reads program sections as supervisord does: configparser, %-expansion, then shlex (command) and its key/value lexer (environment). */
const READ_PROGRAMS = `
import json, shlex, sys
from supervisor.options import UnhosedConfigParser, expand
from supervisor.datatypes import dict_of_key_value_pairs
out = []
for text in json.load(open(sys.argv[1])):
    parser = UnhosedConfigParser()
    parser.read_string(text)
    [section] = parser.sections()
    expansions = {"program_name": section.split(":", 1)[1], "here": "/etc/supervisor/conf.d"}
    command = shlex.split(expand(parser.get(section, "command"), expansions, "command"))
    env = parser.get(section, "environment") if parser.has_option(section, "environment") else ""
    out.append([command, dict_of_key_value_pairs(expand(env, expansions, "environment"))])
print(json.dumps(out))
`;

const ALL = [WEB, GUARD, ONCE, QUOTED, PIPED, LOOPER_CONFIG("v1"), LOOPER, PARKED];
const NAMES = ["web", "guard", "once", "quoted", "piped", "piped-tail", "looper", "parked"];

describe("tend-provider-supervisord from packed tarballs, on supervisord as PID 1", () => {
  let host: TestHost;
  let tarballs: string[];
  let firstApply = "";

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-it-supervisord-"));
    const packed = [...(await packWorkspace("./packages/{core,cli,fleet}", dir)), await npmPack(EXAMPLE, dir)];
    tarballs = packed.map((p) => p.tarball);
    const { cache } = await fillNpmCache(tarballs);
    host = await startHost("supervisord", { mounts: await offlineMounts(dir, cache) });
    await host.writeFile("/opt/demo/bin/demo", DEMO, { mode: 0o755 });
  });

  afterAll(async () => {
    await host?.stop();
  });

  const apply = async (docs: string[], exitCode = 0) => {
    await host.writeFile(SPEC, spec(...docs));
    return installedTend(host, ["apply", "-f", SPEC], exitCode);
  };
  const plan = (exitCode: number) => installedTend(host, ["plan", "-f", SPEC, "--detailed-exitcode"], exitCode);
  const statusOf = async (name: string) => (await host.exec(["supervisorctl", "status", `tend-${name}`])).stdout;
  const pidOf = async (name: string) => /^\S+\s+RUNNING\s+pid (\d+),/.exec(await statusOf(name))?.[1] ?? "";
  const exists = async (path: string) => (await host.exec(["test", "-e", path])).exitCode === 0;

  it("installs offline into a clean prefix, with one @tend/core the CLI and the provider share", async () => {
    await installOffline(host, tarballs);
    expect(await coreCopies(host)).toEqual(["/opt/prefix/lib/node_modules/@tend/core/package.json"]);
    expect(await host.mustExec(["ls", "/opt/prefix/lib/node_modules"])).toBe("@tend\ntend-provider-supervisord\n");
  });

  it("tend providers: the detected init is supervisord, served by tend-provider-supervisord", async () => {
    const output = await installedTend(host, ["providers"]);
    expect(output).toMatch(/^host init: supervisord$/m);
    expect(output).toMatch(/^\* tend-provider-supervisord@0\.1\.0 {2}service on supervisord; declares supervisord {2}\(api 1, tend's install\)$/m);
  });

  it("plans the services on the supervisord host", async () => {
    await host.writeFile(SPEC, spec(...ALL));
    const output = await plan(2);
    expect(output).toMatch(/^host supervisord-host \(supervisord\)$/m);
    expect(output).toContain("+ service:web  /opt/demo/bin/demo web");
    expect(output).toContain("8 to add, 0 to change, 0 to remove");
  });

  it("applies: program files loaded, running and verified, argv and env byte for byte", async () => {
    const output = (firstApply = await apply(ALL));
    for (const name of ["web", "guard", "once", "quoted", "piped", "looper"]) {
      expect(output).toContain(`service:${name}: verified`);
      expect(await statusOf(name)).toMatch(new RegExp(`^tend-${name}\\s+RUNNING\\s+pid \\d+`));
    }
    const conf = await host.readFile("/etc/supervisor/conf.d/tend-web.conf");
    expect(conf.startsWith("# Managed by tend. Edits are overwritten on the next apply.\n[program:tend-web]\n")).toBe(true);
    expect(conf).toContain("autorestart=true\nstopasgroup=true\nkillasgroup=true\n");

    const web = await pidOf("web");
    expect((await host.readFile(`/proc/${web}/environ`)).split("\0")).toContain(`GREETING=${GREETING}`);
    expect(await demoStarts(host, "web")).toEqual([`start ${web} ${GREETING}`]);
    expect(await exists("/tmp/pwned")).toBe(false);
    const quoted = await pidOf("quoted");
    expect((await host.readFile(`/proc/${quoted}/cmdline`)).split("\0")).toEqual(["/bin/sh", "/opt/demo/bin/demo", "quoted", "", "daemon off;", ""]);
    expect((await host.readFile(`/proc/${quoted}/environ`)).split("\0")).toContain(`PLAIN=${PLAIN_ENOUGH}`);
    expect(await host.readFile("/etc/supervisor/conf.d/tend-quoted.conf")).toContain("\nenvironment=PLAIN=");
    expect(await host.readFile("/etc/supervisor/conf.d/tend-web.conf")).toContain("\ncommand=/usr/bin/env 'GREETING=");
    expect(await livePids(host, "piped-tail")).toHaveLength(1);
  });

  it("keeps a service that is to be stopped but start at boot stopped, though supervisord starts what it loads", async () => {
    expect(await host.readFile("/etc/supervisor/conf.d/tend-parked.conf")).toContain("autostart=true\n");
    expect(firstApply).toContain("service:parked: supervisord starts a program it loads with autostart=true; stopped it again");
    expect(await statusOf("parked")).toMatch(/^tend-parked\s+STOPPED/);
    expect(await livePids(host, "parked")).toEqual([]);
  });

  it("plans nothing on a second run", async () => {
    expect(await plan(0)).toContain("0 to add, 0 to change, 0 to remove");
    const observed = JSON.parse(await installedTend(host, ["observe", "-f", SPEC, "service:web", "service:parked", "--json"]));
    expect(observed.result.resources).toMatchObject([
      { key: "service:web", exists: true, state: "running", enabled: true },
      { key: "service:parked", exists: true, state: "stopped", enabled: true },
    ]);
  });

  it("restart policies: always and on_failure come back after a crash; no stays down until the next apply", async () => {
    const before = { web: await pidOf("web"), guard: await pidOf("guard"), once: await pidOf("once") };
    await host.mustSh(`kill -TERM ${before.web} ${before.guard} ${before.once}`);
    for (const name of ["web", "guard"] as const) {
      await host.waitFor(async () => ((await pidOf(name)) !== "" && (await pidOf(name)) !== before[name]) || undefined, {
        timeoutMs: 15_000,
        what: `supervisord to restart tend-${name}`,
      });
    }
    await host.waitFor(async () => (await livePids(host, "once")).length === 0, { timeoutMs: 10_000, what: "tend-once to end" });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await demoStarts(host, "once")).toHaveLength(1);
    expect(await plan(2)).toMatch(/~ service:once {2}start\n\s+reason {2}stopped, want running/);
    expect(await apply(ALL)).toContain("service:once: verified");
    expect(await demoStarts(host, "once")).toHaveLength(2);
  });

  it("a change restarts the program with its new settings", async () => {
    const before = await pidOf("web");
    const changed = WEB.replace("restart: always", "restart: always\ndescription: changed");
    await host.writeFile(SPEC, spec(changed, ...ALL.slice(1)));
    expect(await plan(2)).toMatch(/~ service:web {2}restart/);
    const output = await apply([changed, ...ALL.slice(1)]);
    expect(output).toMatch(/service:web: changed, restarted/);
    expect(output).toContain("service:web: verified");
    const after = await pidOf("web");
    expect(after).not.toBe(before);
    expect(await livePids(host, "web")).toEqual([after]);
    expect(await host.readFile("/etc/supervisor/conf.d/tend-web.conf")).toContain("# changed\n");
    await apply(ALL);
  });

  it("reloadOn a file delivers reloadSignal to the same process, without a restart", async () => {
    const pid = await pidOf("looper");
    const output = await apply(ALL.map((d) => (d === ALL[5] ? LOOPER_CONFIG("v2") : d)));
    expect(output).toMatch(/service:looper: changed, reloaded/);
    await host.waitFor(async () => (await hupsReceived(host, "looper")).includes(pid), { timeoutMs: 10_000, what: "tend-looper to get HUP" });
    expect(await pidOf("looper")).toBe(pid);
    expect(await demoLog(host, "looper")).toMatch(/^start \d+\n/);
  });

  it("writes what supervisor's own parser reads back, for any argument and env value", async () => {
    const printable = fc.string({ unit: fc.constantFrom(..." \t'\"\\;#%$`=,:()[]{}|&<>*?~!aZ09é".split("")), maxLength: 12 });
    const cases = fc.sample(fc.tuple(fc.array(printable, { maxLength: 4 }), fc.dictionary(fc.constantFrom("A", "B_2", "c"), printable, { maxKeys: 3 })), 300);
    const services = cases.map(([args, env], i) =>
      build.service(`p${i}`, { exec: ["/opt/p", ...args].map(shellQuote).join(" "), env }),
    );
    const files = services.map((service) => renderProgram(service)[0]!.content);
    await host.writeFile("/tmp/confs.json", JSON.stringify(files));
    const read = JSON.parse(await host.mustExec(["python3", "-c", READ_PROGRAMS, "/tmp/confs.json"])) as [string[], Record<string, string>][];
    read.forEach(([argv, env], i) => {
      const [args, wanted] = cases[i]!;
      // A value environment= cannot hold comes through /usr/bin/env's assignments instead.
      const start = argv[0] === "/usr/bin/env" ? argv.indexOf("/opt/p") : 0;
      const assigned = Object.fromEntries(argv.slice(1, Math.max(start, 1)).map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]));
      expect({ argv: argv.slice(start), env: { ...env, ...assigned } }, files[i]).toEqual({ argv: ["/opt/p", ...args], env: wanted });
    });
  });

  it("removes: stopped, files deleted, unloaded, and every process gone from the process table", async () => {
    const output = await apply([LOOPER_CONFIG("v2")]);
    for (const name of ["web", "guard", "once", "quoted", "piped", "looper", "parked"]) expect(output).toContain(`service:${name}: removed`);
    expect(await host.mustExec(["ls", "-A", "/etc/supervisor/conf.d"])).toBe("");
    expect((await host.exec(["supervisorctl", "status"])).stdout).not.toMatch(/tend-/);
    for (const name of NAMES) expect(await livePids(host, name), `live ${name} processes`).toEqual([]);
    expect(await plan(0)).toContain("0 to add, 0 to change, 0 to remove");
  });
});
