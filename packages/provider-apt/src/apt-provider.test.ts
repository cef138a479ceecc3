import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { TendError, validateSpec, type Package, type ResourceChange } from "@tend/core";
import { applyContext, describeConformance, readContext, sampleResources } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { FakeApt } from "./__fixtures__/fake-apt.js";
import provider, { parseAptPolicy, parseDpkgQuery } from "./index.js";

/** Every sample package as dpkg and the lists would have it: installed as asked, absent ones not. */
function samplesInstalled(): FakeApt {
  const apt = new FakeApt();
  for (const p of sampleResources(["package"], 30) as Package[]) {
    if (p.state === "absent") continue;
    apt.installed.set(p.name, p.version ?? "1.0");
    apt.lists.set(p.name, [p.version ?? "1.0"]);
  }
  return apt;
}

async function withDpkg(root: string) {
  await mkdir(join(root, "var/lib/dpkg"), { recursive: true });
  await writeFile(join(root, "var/lib/dpkg/status"), "");
}

describeConformance({
  provider,
  packageJson: new URL("../package.json", import.meta.url),
  init: "runit",
  runner: () => samplesInstalled().runner,
  prepareRoot: withDpkg,
});

const pkgs = (raw: unknown[]) => validateSpec(raw) as Package[];
const change = (pkg: Package, action: ResourceChange["action"] = "add"): ResourceChange<"package"> => ({ key: `package:${pkg.name}`, action, resource: pkg, ops: [], filesChanged: false, reasons: [] });

async function context(apt: FakeApt, offline = false) {
  const ctx = await applyContext({ init: "runit", runner: apt.runner, offline });
  await withDpkg(ctx.rootDir);
  return ctx;
}

/** A wave of n packages: a third to install, a third to pin, a third to remove. */
function wave(n: number) {
  const apt = new FakeApt();
  const raw: unknown[] = [];
  for (let i = 0; i < n; i += 1) {
    if (i % 3 === 0) raw.push({ type: "package", name: `new${i}` });
    if (i % 3 === 1) raw.push({ type: "package", name: `pin${i}`, version: "2.0-1" });
    if (i % 3 === 2) raw.push({ type: "package", name: `gone${i}`, state: "absent" });
    apt.lists.set(`new${i}`, ["1.0-1"]);
    apt.lists.set(`pin${i}`, ["3.0-1", "2.0-1"]);
    apt.installed.set(`pin${i}`, "1.0-1");
    apt.installed.set(`gone${i}`, "1.0-1");
  }
  return { apt, resources: pkgs(raw) };
}

describe("the apt provider", () => {
  it("serves packages on every init, as a fallback for a type no init runs itself, and renders nothing", async () => {
    expect(provider.serves).toEqual({ inits: [], types: ["package"], fallback: true });
    expect(provider.render(pkgs([{ type: "package", name: "nginx" }])[0]! as never, (await context(new FakeApt())) as never)).toEqual([]);
  });

  it("reads dpkg-query's lines: version and status, an installed architecture winning, config-files-only as not installed", () => {
    expect(parseDpkgQuery("nginx\t1.22.1-9\tii \nlibc6\t2.36-9\tun \nlibc6\t2.36-9\tii \nold\t1.0\trc \nhalf\t2.0\tiU \n")).toEqual(
      new Map([
        ["nginx", { version: "1.22.1-9", status: "ii", installed: true }],
        ["libc6", { version: "2.36-9", status: "ii", installed: true }],
        ["old", { status: "rc", installed: false }],
        ["half", { version: "2.0", status: "iU", installed: false }],
      ]),
    );
  });

  it("reads apt-cache policy: the candidate and every version, for several packages; an unknown one has no block", () => {
    const out = [
      "nginx:\n  Installed: (none)\n  Candidate: 1.22.1-9\n  Version table:\n     1.22.1-9 500\n        500 file:/srv/repo ./ Packages\n",
      "tend-demo:\n  Installed: 1.0\n  Candidate: 1.1\n  Version table:\n     1.1 500\n        500 file:/srv/repo ./ Packages\n *** 1.0 500\n        500 file:/srv/repo ./ Packages\n        100 /var/lib/dpkg/status\n",
      "gone:\n  Installed: (none)\n  Candidate: (none)\n  Version table:\n",
    ].join("");
    expect(parseAptPolicy(out)).toEqual(
      new Map([
        ["nginx", { candidate: "1.22.1-9", versions: ["1.22.1-9"] }],
        ["tend-demo", { candidate: "1.1", versions: ["1.1", "1.0"] }],
        ["gone", { versions: [] }],
      ]),
    );
  });

  it("observes 3 and 60 packages with the same two commands: one dpkg-query and one apt-cache policy for all", async () => {
    const lines: string[][] = [];
    for (const n of [3, 60]) {
      const { apt, resources } = wave(n);
      const seen = await provider.observe(resources as never, await context(apt));
      expect(seen.size).toBe(n);
      lines.push(apt.runner.lines.map((l) => l.split(" ").slice(0, 3).join(" ")));
      expect(apt.runner.calls[0]!.argv.filter((a) => /^(new|pin|gone)\d+$/.test(a))).toHaveLength(n);
    }
    expect(lines[0]).toEqual(["dpkg-query -W -f=${Package}\\t${Version}\\t${db:Status-Abbrev}\\n", "apt-cache policy new0"]);
    expect(lines[1]).toEqual(lines[0]);
  });

  it("reports what apt has to do as drift, and the installed version for the state", async () => {
    const { apt, resources } = wave(3);
    apt.installed.set("new0", "0.9");
    apt.lists.set("new0", ["1.0-1"]);
    const seen = await provider.observe([...resources, ...pkgs([{ type: "package", name: "new0x", state: "latest" }])] as never, await context(apt));
    expect(seen.get("package:new0")).toMatchObject({ exists: true, version: "0.9", drift: [] });
    expect(seen.get("package:pin1")).toMatchObject({ exists: true, version: "1.0-1", drift: ["installed 1.0-1, want 2.0-1"] });
    expect(seen.get("package:gone2")).toMatchObject({ exists: true, drift: ["installed 1.0-1, want absent"] });
  });

  it("applies a wave of 3 or of 60 packages with one apt-get install and one apt-get remove, then verifies with one dpkg-query", async () => {
    const counts: string[] = [];
    for (const n of [3, 60]) {
      const { apt, resources } = wave(n);
      const ctx = await context(apt);
      const failures = await provider.applyBatch!(resources.map((r) => change(r)) as never, ctx);
      expect([...failures.keys()]).toEqual([]);
      counts.push(`dpkg-query ${apt.count("dpkg-query")}, apt-cache ${apt.count("apt-cache")}, apt-get ${apt.count("apt-get")}`);
      for (const r of resources) expect(apt.installed.get(r.name)).toBe(r.state === "absent" ? undefined : (r.version ?? "1.0-1"));
    }
    expect(counts).toEqual(["dpkg-query 2, apt-cache 1, apt-get 2", "dpkg-query 2, apt-cache 1, apt-get 2"]);
  });

  it("runs apt-get never interactively, keeping the admin's config files, under a lock timeout and a deadline", async () => {
    const { apt, resources } = wave(3);
    await provider.applyBatch!(resources.map((r) => change(r)) as never, await context(apt));
    const install = apt.runner.calls.find((c) => c.argv[1] === "install")!;
    expect(install.argv).toEqual([
      "apt-get", "install", "-y", "-q", "--allow-downgrades",
      "-o", "Dpkg::Options::=--force-confdef", "-o", "Dpkg::Options::=--force-confold", "-o", "DPkg::Lock::Timeout=120",
      "new0", "pin1=2.0-1",
    ]);
    expect(install.env).toMatchObject({ DEBIAN_FRONTEND: "noninteractive" });
    expect(install.input).toBe("");
    expect(install.timeoutMs).toBeGreaterThan(0);
    expect(apt.runner.calls.find((c) => c.argv[1] === "remove")!.argv.slice(-1)).toEqual(["gone2"]);
  });

  it("pins a failed batch on the package at fault: the others are retried one by one and installed", async () => {
    const { apt, resources } = wave(6);
    apt.broken.add("new3");
    const failures = await provider.applyBatch!(resources.map((r) => change(r)) as never, await context(apt));
    expect([...failures.keys()]).toEqual(["package:new3"]);
    expect(TendError.isInstance(failures.get("package:new3")) && (failures.get("package:new3") as Error).message).toContain("for new3");
    expect(apt.installed.get("new0")).toBe("1.0-1");
    expect(apt.installed.get("pin4")).toBe("2.0-1");
  });

  it("fails a package that apt-get left at another version than asked", async () => {
    const apt = new FakeApt(new Map(), new Map([["demo", ["1.1"]]]), new Set(), new Set(["demo"]));
    const failures = await provider.applyBatch!([change(pkgs([{ type: "package", name: "demo", version: "1.1" }])[0]!)] as never, await context(apt));
    expect((failures.get("package:demo") as Error).message).toBe("package:demo: after apt-get, it is not installed (un)");
  });

  it("fails plan for a package the lists do not have (field name) and a version they do not offer (field version)", async () => {
    const apt = new FakeApt(new Map(), new Map([["demo", ["1.1", "1.0"]]]));
    const resources = pkgs([{ type: "package", name: "nope" }, { type: "package", name: "demo", version: "9.9" }, { type: "package", name: "demo2", state: "absent" }]);
    const ctx = await context(apt);
    const seen = await provider.observe(resources as never, ctx);
    const problems = await provider.checkHost!(resources as never, seen, ctx);
    expect(problems.map((e) => [e.code, e.message, e.location.resource, e.location.field])).toEqual([
      ["TEND_APT_NO_PACKAGE", "package:nope: no package nope is in this host's apt package lists", "package:nope", "name"],
      ["TEND_APT_NO_VERSION", "package:demo: version 9.9 is not in this host's apt package lists", "package:demo", "version"],
    ]);
    expect(problems[1]!.hint).toBe("The lists offer 1.1, 1.0");
  });

  it("fails plan on a host without dpkg, naming the package", async () => {
    const ctx = await applyContext({ init: "openrc", runner: new FakeApt().runner });
    const resources = pkgs([{ type: "package", name: "nginx" }]);
    const problems = await provider.checkHost!(resources as never, await provider.observe(resources as never, ctx), ctx);
    expect(problems.map((e) => [e.code, e.location.resource])).toEqual([["TEND_APT_NO_DPKG", "package:nginx"]]);
  });

  it("under --root reads the root's dpkg database and apt lists, and refuses to run apt-get there", async () => {
    const apt = new FakeApt(new Map([["demo", "1.0"]]), new Map([["demo", ["1.1", "1.0"]]]));
    const ctx = await context(apt, true);
    const resources = pkgs([{ type: "package", name: "demo", state: "latest" }]);
    const failures = await provider.applyBatch!([change(resources[0]!)] as never, ctx);
    expect(apt.runner.lines[0]).toContain(`dpkg-query --admindir=${ctx.rootDir}/var/lib/dpkg -W`);
    expect(apt.runner.lines[1]).toBe(`apt-cache -o Dir=${ctx.rootDir}/ policy demo`);
    expect((failures.get("package:demo") as TendError).code).toBe("TEND_APT_OFFLINE");
    expect(apt.count("apt-get")).toBe(0);
  });

  it("leaves a package removed from the spec installed", async () => {
    const apt = new FakeApt(new Map([["demo", "1.0"]]));
    const ctx = await context(apt);
    expect(await provider.removeBatch!([change(pkgs([{ type: "package", name: "demo" }])[0]!, "remove")] as never, ctx)).toEqual(new Map());
    expect(apt.count("apt-get")).toBe(0);
  });
});
