import { startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Packages on a runit host (Debian, no network): the test builds a flat apt repository in
 * /srv/repo from tiny .deb packages made with dpkg-deb — tend-demo 1.0 and 1.1, whose program a
 * service runs, and tend-post, whose postinst leaves a mark — and replaces the container's apt
 * sources with `deb [trusted=yes] file:/srv/repo ./`. tend picks the apt provider on runit by
 * itself, and drives the real dpkg and apt-get.
 */

const SPEC = "/spec/tend.yaml";
const STARTS = "/var/tmp/tend-demo.starts";

/** tend-demo's program: logs its PID and version, then stays in front as that PID. */
const demoProgram = (version: string) => `#!/bin/sh\necho "$$ ${version}" >> ${STARTS}\nexec sleep 100000\n`;

/** Builds one .deb in /build and copies it into /srv/repo; its files under /etc are conffiles. */
const buildDeb = (name: string, version: string, files: Record<string, { content: string; mode: string }>, postinst?: string) => {
  const dir = `/build/${name}_${version}`;
  const lines = [`rm -rf ${dir}`, `mkdir -p ${dir}/DEBIAN`];
  for (const [path, { content, mode }] of Object.entries(files)) {
    lines.push(`mkdir -p ${dir}$(dirname ${path})`, `printf '%s' '${content.replace(/'/g, "'\\''")}' > ${dir}${path}`, `chmod ${mode} ${dir}${path}`);
  }
  lines.push(
    `printf 'Package: ${name}\\nVersion: ${version}\\nArchitecture: all\\nMaintainer: tend tests <tests@example.invalid>\\nDescription: tend ${name} test package\\n' > ${dir}/DEBIAN/control`,
  );
  // As debhelper marks them: every file under /etc is a conffile, which dpkg never silently replaces.
  const conffiles = Object.keys(files).filter((path) => path.startsWith("/etc/"));
  if (conffiles.length > 0) lines.push(`printf '${conffiles.map((path) => `${path}\\n`).join("")}' > ${dir}/DEBIAN/conffiles`);
  if (postinst) lines.push(`printf '${postinst}' > ${dir}/DEBIAN/postinst`, `chmod 755 ${dir}/DEBIAN/postinst`);
  lines.push(`dpkg-deb --root-owner-group --build ${dir} /srv/repo/${name}_${version}_all.deb >/dev/null`);
  return lines.join("\n");
};

/** A flat repository's Packages index, as dpkg-scanpackages writes it: each control, then where and what. */
const INDEX = `cd /srv/repo && for deb in *.deb; do
  dpkg-deb -f "$deb"
  echo "Filename: ./$deb"
  echo "Size: $(stat -c %s "$deb")"
  echo "SHA256: $(sha256sum "$deb" | cut -d' ' -f1)"
  echo
done > Packages
chmod -R a+rX /srv/repo
rm -f /etc/apt/sources.list.d/* && echo 'deb [trusted=yes] file:/srv/repo ./' > /etc/apt/sources.list
apt-get update -q >/dev/null`;

const pkgDoc = (name: string, extra = "") => `tend: v1alpha1\ntype: Package\nname: ${name}\n${extra}`;
const WEB = "tend: v1alpha1\ntype: Service\nname: web\nexec: /usr/bin/tend-demo\nrequires:\n  - Package[tend-demo]\nrestartOn:\n  - Package[tend-demo]\nverify:\n  settle: 1\n";
const spec = (...docs: string[]) => docs.join("---\n");
const APP_CONF = "tend: v1alpha1\ntype: File\nname: app-conf\npath: /etc/tend-conf/app.conf\ncontent: \"from = tend\\n\"\nrequires:\n  - Package[tend-conf]\n";

describe("packages with apt on a runit host", () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startHost("runit");
    const script = [
      "set -e",
      "mkdir -p /srv/repo /build",
      buildDeb("tend-demo", "1.0", { "/usr/bin/tend-demo": { content: demoProgram("1.0"), mode: "755" } }),
      buildDeb("tend-demo", "1.1", { "/usr/bin/tend-demo": { content: demoProgram("1.1"), mode: "755" } }),
      buildDeb("tend-post", "1.0", { "/usr/share/tend-post/README": { content: "tend-post\n", mode: "644" } }, "#!/bin/sh\\nset -e\\necho \"configured $1\" >> /var/tmp/tend-post.postinst\\n"),
      buildDeb("tend-conf", "1.0", { "/etc/tend-conf/app.conf": { content: "from = package\n", mode: "644" } }),
      buildDeb("tend-owned", "1.0", { "/etc/tend-owned/app.conf": { content: "from = package\n", mode: "644" } }, "#!/bin/sh\\nset -e\\ngetent passwd tendowned >/dev/null || useradd --system --no-create-home tendowned\\n"),
      buildDeb("tend-user", "1.0", { "/usr/share/tend-user/README": { content: "tend-user\n", mode: "644" } }, "#!/bin/sh\\nset -e\\ngetent passwd tenduser >/dev/null || useradd --system --no-create-home tenduser\\n"),
      INDEX,
    ].join("\n");
    await host.mustSh(script, { timeoutMs: 120_000 });
  }, 300_000);

  afterAll(async () => {
    await host?.stop();
  });

  const installed = async (name: string) => (await host.sh(`dpkg-query -W -f='\${Version} \${db:Status-Abbrev}' ${name}`)).stdout.trim();
  const starts = async () => (await host.sh(`cat ${STARTS} 2>/dev/null`)).stdout.trim().split("\n").filter(Boolean);
  const servicePid = async () => (await host.mustSh("sv status /etc/service/tend-web")).match(/\(pid (\d+)\)/)?.[1];

  it("serves packages with the apt provider on runit", async () => {
    await host.writeFile(SPEC, spec(pkgDoc("tend-demo")));
    expect(await host.expectTend(["providers", "-f", SPEC])).toMatch(/^\* @tend\/provider-apt@\S+\s+package\b/m);
  });

  it("installs a pinned version and a package with a postinst, and starts the service that runs the package's program after them, in one apply", async () => {
    await host.writeFile(SPEC, spec(pkgDoc("tend-demo", 'version: "1.0"\n'), pkgDoc("tend-post"), WEB));
    expect(await host.expectTend(["plan", "-f", SPEC])).toContain("+ package:tend-demo  1.0");
    const output = await host.expectTend(["apply", "-f", SPEC]);
    expect(output.indexOf("package:tend-demo: installed 1.0")).toBeGreaterThan(-1);
    expect(output.indexOf("package:tend-demo: installed 1.0")).toBeLessThan(output.indexOf("service:web: added"));
    expect(await installed("tend-demo")).toBe("1.0 ii");
    expect(await installed("tend-post")).toBe("1.0 ii");
    expect(await host.readFile("/var/tmp/tend-post.postinst")).toBe("configured configure\n");
    const pid = await servicePid();
    expect(await starts()).toEqual([`${pid} 1.0`]);
    await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"]);
  });

  it("restarts the service (new PID) when the package was upgraded by hand with apt-get outside tend, and the next plan is clean", async () => {
    await host.writeFile(SPEC, spec(pkgDoc("tend-demo"), pkgDoc("tend-post"), WEB));
    await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"]);
    const before = await servicePid();
    await host.mustSh("DEBIAN_FRONTEND=noninteractive apt-get install -y -q tend-demo=1.1 >/dev/null");
    expect(await host.expectTend(["plan", "-f", SPEC])).toContain("~ service:web  restart\n      reason  package:tend-demo upgraded 1.0 → 1.1\n");
    await host.expectTend(["apply", "-f", SPEC]);
    const after = await servicePid();
    expect(after).not.toBe(before);
    expect((await starts()).at(-1)).toBe(`${after} 1.1`);
    await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"]);
  });

  it("moves a package to a pinned version and to the latest, restarting the service in the same apply each time", async () => {
    await host.writeFile(SPEC, spec(pkgDoc("tend-demo", 'version: "1.0"\n'), pkgDoc("tend-post"), WEB));
    expect(await host.expectTend(["plan", "-f", SPEC])).toContain("installed 1.1, want 1.0");
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await installed("tend-demo")).toBe("1.0 ii");
    expect((await starts()).at(-1)).toBe(`${await servicePid()} 1.0`);
    await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"]);

    await host.writeFile(SPEC, spec(pkgDoc("tend-demo", "state: latest\n"), pkgDoc("tend-post"), WEB));
    expect(await host.expectTend(["plan", "-f", SPEC])).toContain("~ service:web  restart");
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await installed("tend-demo")).toBe("1.1 ii");
    expect((await starts()).at(-1)).toBe(`${await servicePid()} 1.1`);
    await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"]);
  });

  it("removes a package with state absent (apt-get remove, not purge)", async () => {
    await host.writeFile(SPEC, spec(pkgDoc("tend-demo", "state: latest\n"), pkgDoc("tend-post", "state: absent\n"), WEB));
    expect(await host.expectTend(["apply", "-f", SPEC])).toContain("package:tend-post: removed");
    expect(await installed("tend-post")).not.toContain("ii");
    expect((await host.sh("test -e /usr/share/tend-post/README")).exitCode).toBe(1);
    await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"]);
  });

  it("fails plan for a package the lists do not have, and for a version they do not offer, naming the resource and field", async () => {
    await host.writeFile("/spec/missing.yaml", spec(pkgDoc("tend-nope"), pkgDoc("tend-demo", 'version: "9.9"\n')));
    const output = await host.expectTend(["plan", "-f", "/spec/missing.yaml"], { exitCode: 1 });
    expect(output).toContain("package:tend-nope: no package tend-nope is in this host's apt package lists");
    expect(output).toContain("package:tend-demo: version 9.9 is not in this host's apt package lists");
    expect(output).toContain("1.1, 1.0");
  });

  it("writes a File owned by the user a package it requires makes after installing the package, in one apply", async () => {
    const conf = "tend: v1alpha1\ntype: File\nname: user-conf\npath: /etc/tend-user.conf\ncontent: \"secret = 1\\n\"\nmode: \"0640\"\nowner: tenduser\ngroup: tenduser\nrequires:\n  - Package[tend-user]\n";
    const userSpec = SPEC;
    // What the test before applied, and the package and the File.
    await host.writeFile(userSpec, spec(pkgDoc("tend-demo", "state: latest\n"), pkgDoc("tend-post", "state: absent\n"), WEB, pkgDoc("tend-user"), conf));
    expect((await host.sh("getent passwd tenduser")).exitCode).toBe(2);
    const planned = await host.expectTend(["plan", "-f", userSpec, "--detailed-exitcode"], { exitCode: 2 });
    expect(planned).toContain("+ package:tend-user");
    expect(planned).toContain("+ file:user-conf  /etc/tend-user.conf");
    const applied = await host.expectTend(["apply", "-f", userSpec]);
    expect(applied.indexOf("package:tend-user: added")).toBeLessThan(applied.indexOf("file:user-conf: wrote /etc/tend-user.conf"));
    expect(await host.mustSh("stat -c '%U:%G %a' /etc/tend-user.conf")).toBe("tenduser:tenduser 640\n");
    await host.expectTend(["plan", "-f", userSpec, "--detailed-exitcode"]);
    // A File owned by a user that no package in the spec makes is still refused at plan.
    await host.writeFile("/spec/nobody.yaml", spec(conf.replace(/tenduser/g, "tendnobody").replace("user-conf", "nobody-conf").replace("/etc/tend-user.conf", "/etc/nobody.conf").replace(/requires:\n.*\n/, "")));
    expect(await host.expectTend(["plan", "-f", "/spec/nobody.yaml"], { exitCode: 1 })).toContain("unknown user `tendnobody`");
  });

  it("leaves nothing in /var/lib/tend but the lock and the state", async () => {
    expect(await host.mustSh("ls -A /var/lib/tend")).toBe("lock\nstate.json\n");
  });

  it("writes a File at a path its package installs before installing the package, and dpkg keeps tend's (--force-confold)", async () => {
    await host.writeFile("/spec/conf.yaml", spec(pkgDoc("tend-conf"), APP_CONF));
    const applied = await host.expectTend(["apply", "-f", "/spec/conf.yaml"]);
    expect(applied.indexOf("file:app-conf: wrote /etc/tend-conf/app.conf")).toBeLessThan(applied.indexOf("package:tend-conf: added"));
    expect(await host.readFile("/etc/tend-conf/app.conf")).toBe("from = tend\n");
    expect(await installed("tend-conf")).toBe("1.0 ii");
    await host.expectTend(["plan", "-f", "/spec/conf.yaml", "--detailed-exitcode"]);
  });

  it("writes a File owned by the user its package makes over the copy that package installs, in one apply, keeping the package's copy", async () => {
    const conf = "tend: v1alpha1\ntype: File\nname: owned-conf\npath: /etc/tend-owned/app.conf\ncontent: \"from = tend\\n\"\nmode: \"0640\"\nowner: tendowned\nrequires:\n  - Package[tend-owned]\n";
    await host.writeFile("/spec/owned.yaml", spec(pkgDoc("tend-conf"), APP_CONF, pkgDoc("tend-owned"), conf));
    expect(await host.expectTend(["plan", "-f", "/spec/owned.yaml", "--detailed-exitcode"], { exitCode: 2 })).toContain("+ file:owned-conf  /etc/tend-owned/app.conf");
    // The File waits for its owner, so the package's own copy is there first.
    const applied = await host.expectTend(["apply", "-f", "/spec/owned.yaml"]);
    expect(applied).toContain("file:owned-conf: wrote /etc/tend-owned/app.conf (tend-owned installed it in this apply; its copy is kept under backups/)");
    expect(await host.readFile("/etc/tend-owned/app.conf")).toBe("from = tend\n");
    expect(await host.mustSh("stat -c '%U %a' /etc/tend-owned/app.conf")).toBe("tendowned 640\n");
    expect(await host.mustSh("cat /var/lib/tend/backups/*/file/etc/tend-owned/app.conf")).toBe("from = package\n");
    await host.expectTend(["plan", "-f", "/spec/owned.yaml", "--detailed-exitcode"]);
  });
});
