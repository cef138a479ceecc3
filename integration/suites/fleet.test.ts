import { startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO } from "../support/demo-daemon.js";
import { FleetLab, proxyPids } from "../support/fleet-hosts.js";
import { blockCommands, docBlock } from "../../repo-checks/doc-blocks.js";
import { parseInventory } from "../../packages/fleet/dist/index.js";

/**
 * One spec on systemd, runit and OpenRC hosts at once, over OpenSSH: tend runs here, each
 * container is reached with `ssh` through `ProxyCommand docker exec -i ID /usr/sbin/sshd -i`
 * (the containers keep --network none), host keys pinned in a known_hosts file and checked.
 * Nothing of tend is on the targets: only sh, coreutils, flock and the init.
 */

const INITS = ["systemd", "runit", "openrc"] as const;

/** A spec using the fleet facts: a file naming the host, and the demo service. */
const CONFIG = `import { defineConfig, file, service } from "@tend/core";
export default defineConfig((host) => [
  file("motd", {
    path: "/etc/fleet/motd",
    content: \`host \${host.name} init \${host.init} groups \${(host.groups ?? []).join(",")} role \${host.facts?.role} distro \${host.facts?.distro}\\n\`,
    mode: "0640",
  }),
  service("web", { exec: "/opt/demo/bin/demo web", restart: "always" }),
  ...(host.facts?.extra ? [file("extra", { path: "/etc/fleet/extra.conf", content: "extra\\n" })] : []),
  ...(host.facts?.many ? Array.from({ length: Number(host.facts.many) }, (_, i) => service(\`s\${i}\`, { exec: \`/opt/demo/bin/demo s\${i}\`, restart: "always" })) : []),
  ...(host.facts?.alice ? [file("alice-conf", { path: "/home/alice/.config/fleet.conf", content: "for alice\\n" })] : []),
  ...(host.facts?.directory ? [file("directory", { path: "/etc/fleet/directory.conf", content: "for a directory user\\n", owner: "ldapuser", group: "ldapgroup", mode: "0640" })] : []),
]);
`;

describe("a fleet over OpenSSH (systemd, runit and OpenRC in containers)", () => {
  const lab = new FleetLab();
  const hosts = {} as Record<(typeof INITS)[number], TestHost>;
  let spec: string;
  let inventory: string;

  beforeAll(async () => {
    await Promise.all(
      INITS.map(async (init) => {
        const host = await startHost(init);
        hosts[init] = host;
        await host.writeFile("/opt/demo/bin/demo", DEMO, { mode: 0o755 });
        await lab.admit(host, init);
      }),
    );
    spec = lab.write("tend.config.mjs", CONFIG);
    inventory = lab.inventory(
      "tend.hosts.yaml",
      INITS.map((init) => lab.entry(init, hosts[init].id, init === "systemd" ? ["facts: { role: primary }"] : [])),
      "groups:\n  web:\n    hosts: [systemd, runit, openrc]\n    facts: { role: worker }\n",
    );
  });

  afterAll(async () => {
    await Promise.all(INITS.map((init) => hosts[init]?.stop()));
  });

  const stateListing = async (host: TestHost) => (await host.mustExec(["ls", "-A", "/var/lib/tend"])).split("\n").filter(Boolean).sort();

  it("plans every host with its own facts and init, then applies to all at once; a rerun changes nothing", async () => {
    const plan = await lab.tend(["plan", "-f", spec, "--hosts", inventory, "--detailed-exitcode"]);
    expect(plan.exitCode, plan.stderr).toBe(2);
    for (const init of INITS) expect(plan.stdout).toMatch(new RegExp(`^== ${init} \\(${init}, ok\\)$`, "m"));
    expect(plan.stdout).toMatch(/^HOST\s+INIT\s+ADDED\s+CHANGED\s+REMOVED\s+FAILED\s+STATUS\s+TIME$/m);
    expect(plan.stdout).toMatch(/^runit\s+runit\s+2\s+0\s+0\s+0\s+ok\s+\d+\.\d+s$/m);

    const apply = await lab.tend(["apply", "-f", spec, "--hosts", inventory, "--json"]);
    expect(apply.exitCode, apply.stdout).toBe(0);
    const document = JSON.parse(apply.stdout) as { formatVersion: number; ok: boolean; result: { hosts: { name: string; init: string; status: string; applied: boolean; counts: { add: number } }[] } };
    expect(document.formatVersion).toBe(1);
    expect(document.result.hosts.map((h) => [h.name, h.init, h.status, h.applied, h.counts.add])).toEqual(INITS.map((init) => [init, init, "ok", true, 2]));

    for (const init of INITS) {
      const host = hosts[init];
      const role = init === "systemd" ? "primary" : "worker";
      expect(await host.readFile("/etc/fleet/motd")).toBe(`host ${init} init ${init} groups web role ${role} distro debian\n`);
      expect(await host.mustSh("stat -c '%a %U' /etc/fleet/motd")).toBe("640 root\n");
      await host.waitFor(async () => (await host.exec(["pgrep", "-f", "demo web"])).exitCode === 0, { timeoutMs: 15_000, what: `web running on ${init}` });
      expect(await stateListing(host)).toEqual(["lock", "state.json"]);
    }
    const again = await lab.tend(["plan", "-f", spec, "--hosts", inventory, "--detailed-exitcode"]);
    expect(again.exitCode, again.stdout + again.stderr).toBe(0);
  });

  it("sets back a mode loosened by hand on one host, seen in the same batched read as the bytes; the other hosts plan nothing", async () => {
    await hosts.runit.mustSh("chmod 0666 /etc/fleet/motd");
    const plan = await lab.tend(["plan", "-f", spec, "--hosts", inventory, "--detailed-exitcode"]);
    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(plan.stdout).toContain("  ! file:motd drifted: /etc/fleet/motd has mode 0666, not 0640\n      then  set the permissions of its files\n");
    expect(plan.stdout).toMatch(/^runit\s+runit\s+0\s+1\s+0\s+0\s+ok\s/m);
    expect(plan.stdout).toMatch(/^openrc\s+openrc\s+0\s+0\s+0\s+0\s+ok\s/m);
    const mtime = await hosts.runit.mustSh("stat -c %Y /etc/fleet/motd");
    const apply = await lab.tend(["apply", "-f", spec, "--hosts", inventory]);
    expect(apply.exitCode, apply.stdout + apply.stderr).toBe(0);
    expect(await hosts.runit.mustSh("stat -c '%a %U' /etc/fleet/motd")).toBe("640 root\n");
    expect(await hosts.runit.mustSh("stat -c %Y /etc/fleet/motd")).toBe(mtime);
    const again = await lab.tend(["plan", "-f", spec, "--hosts", inventory, "--detailed-exitcode"]);
    expect(again.exitCode, again.stdout + again.stderr).toBe(0);
  });

  it("keeps the exact bytes of an edit saved in Latin-1 under backups/ on the host, and sets the file back", async () => {
    const motd = await hosts.runit.mustSh("od -An -tx1 /etc/fleet/motd");
    await hosts.runit.mustSh("printf 'caf\\351 %%s \\\\ \\377\\n' > /etc/fleet/motd");
    const edited = await hosts.runit.mustSh("od -An -tx1 /etc/fleet/motd");
    expect(edited.replace(/\s+/g, " ").trim()).toBe("63 61 66 e9 20 25 73 20 5c 20 ff 0a");
    const apply = await lab.tend(["apply", "-f", spec, "--hosts", inventory]);
    expect(apply.exitCode, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain("the edited copy is kept under backups/");
    expect(await hosts.runit.mustSh("od -An -tx1 /etc/fleet/motd")).toBe(motd);
    // The newest backup: each apply's folder is named by its time.
    const kept = (await hosts.runit.mustSh("find /var/lib/tend/backups -path '*/etc/fleet/motd' | sort | tail -1")).trim();
    expect(await hosts.runit.mustSh(`od -An -tx1 ${kept}`)).toBe(edited);
    await hosts.runit.mustSh("rm -r /var/lib/tend/backups"); // a later test counts what the state folder holds
  });

  it("keeps going when a host fails mid-apply, one is unreachable and one is locked", async () => {
    // openrc: an unmanaged file where the spec puts one (refused); runit: another apply holds the lock.
    await hosts.openrc.writeFile("/etc/fleet/extra.conf", "the admin's own\n");
    await hosts.runit.mustSh("mkdir -p /var/lib/tend");
    const holder = hosts.runit.exec(["flock", "/var/lib/tend/lock", "sleep", "20"]);
    await hosts.runit.waitFor(async () => (await hosts.runit.exec(["flock", "-n", "/var/lib/tend/lock", "true"])).exitCode === 1, { timeoutMs: 10_000, what: "the lock held" });
    const file = lab.inventory(
      "mixed.hosts.yaml",
      [
        ...INITS.map((init) => lab.entry(init, hosts[init].id, ["facts: { extra: true }"])),
        lab.entry("ghost", "tend-no-such-container", []),
      ],
    );
    const run = await lab.tend(["apply", "-f", spec, "--hosts", file, "--parallel", "4"]);
    expect(run.exitCode).toBe(1);
    // motd changes too: these hosts have no role any more.
    expect(run.stdout).toMatch(/^systemd\s+systemd\s+1\s+1\s+0\s+0\s+ok\s/m);
    expect(run.stdout).toMatch(/^openrc\s+openrc\s+1\s+1\s+0\s+1\s+failed\s/m);
    expect(run.stdout).toMatch(/^runit\s+runit\s+0\s+0\s+0\s+1\s+locked\s/m);
    expect(run.stdout).toMatch(/^ghost\s+-\s+0\s+0\s+0\s+1\s+unreachable\s/m);
    expect(run.stderr).toMatch(/TEND_UNMANAGED_FILE/);
    expect(run.stderr).toMatch(/TEND_LOCKED: another tend apply holds the lock \/var\/lib\/tend\/lock on runit/);
    expect(run.stderr).toMatch(/TEND_FLEET_UNREACHABLE: cannot reach ghost/);
    expect(await hosts.systemd.readFile("/etc/fleet/extra.conf")).toBe("extra\n");
    expect(await hosts.openrc.readFile("/etc/fleet/extra.conf")).toBe("the admin's own\n");
    expect((await hosts.runit.exec(["test", "-e", "/etc/fleet/extra.conf"])).exitCode).toBe(1);
    await holder;
    await hosts.openrc.mustExec(["rm", "/etc/fleet/extra.conf"]);
  });

  it("logs in as a non-root user and works as root through sudo -n; writes in alice's home as alice", async () => {
    const file = lab.inventory("alice.hosts.yaml", [lab.entry("systemd", hosts.systemd.id, ["user: alice", "facts: { alice: true }"])]);
    await hosts.systemd.mustSh("mkdir -p /home/alice/.config && chown alice: /home/alice/.config");
    const run = await lab.tend(["apply", "-f", spec, "--hosts", file]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(await hosts.systemd.mustSh("stat -c '%U %a' /home/alice/.config/fleet.conf")).toBe("alice 644\n");
    expect(await hosts.systemd.readFile("/etc/fleet/motd")).toContain("host systemd init systemd");
    expect(await hosts.systemd.mustSh("stat -c '%U' /var/lib/tend/state.json")).toBe("root\n");
    // Without sudo rights the host fails, saying so; others would go on.
    await hosts.systemd.mustExec(["rm", "/etc/sudoers.d/alice"]);
    const refused = await lab.tend(["plan", "-f", spec, "--hosts", file]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/sudo/);
    await hosts.systemd.writeFile("/etc/sudoers.d/alice", "alice ALL=(ALL) NOPASSWD: ALL\n", { mode: 0o440 });
  });

  it("takes an admin from one host to a fleet with the README's three commands", async () => {
    // The README's inventory is valid as written; here its hosts are the containers.
    const shown = parseInventory(docBlock("README.md", "fleet-inventory").text);
    expect(shown.hosts.map((h) => [h.name, h.groups])).toEqual([["web1", ["web"]], ["web2", ["web"]], ["db1", []]]);
    const [web1, web2, db1] = [hosts.systemd, hosts.runit, hosts.openrc];
    for (const [name, host] of [["web1", web1], ["web2", web2], ["db1", db1]] as const) await lab.admit(host, name);
    lab.write("readme/tend.config.mjs", CONFIG);
    lab.inventory("readme/tend.hosts.yaml", [lab.entry("web1", web1.id, ["groups: [web]"]), lab.entry("web2", web2.id, ["groups: [web]", "facts: { role: canary }"]), lab.entry("db1", db1.id)], "groups:\n  web:\n    facts: { role: web }\n");
    const cwd = `${lab.dir}/readme`;
    for (const block of [docBlock("README.md", "fleet-plan"), docBlock("README.md", "fleet-apply")]) {
      for (const command of blockCommands(block)) {
        const [program, ...args] = command.split(/\s+/);
        expect(program).toBe("tend");
        const run = await lab.tend(args, undefined, cwd);
        expect(run.exitCode, `${command}\n${run.stdout}${run.stderr}`).toBe(0);
        expect(run.stdout).toMatch(/^web1\s+systemd\s/m);
        expect(run.stdout).toMatch(/^db1\s+openrc\s/m);
      }
    }
    expect(await web2.readFile("/etc/fleet/motd")).toBe("host web2 init runit groups web role canary distro debian\n");
    expect(await db1.readFile("/etc/fleet/motd")).toBe("host db1 init openrc groups  role undefined distro debian\n");
  });

  it("converges after the connection is cut mid-apply, leaving no temp file and no journal", async () => {
    const host = hosts.runit;
    const file = lab.inventory("cut.hosts.yaml", [lab.entry("runit", host.id, ["facts: { many: 12 }"])]);
    let cut = false;
    const running = lab.tend(["apply", "-f", spec, "--hosts", file]);
    // Cut once the first service folder is there: mid-wave, before the rest is written and verified.
    for (let tries = 0; tries < 300 && !cut; tries += 1) {
      if ((await host.exec(["sh", "-c", "ls /etc/sv | grep -q '^tend-s'"])).exitCode === 0) {
        for (const pid of proxyPids(host.id)) process.kill(pid, "SIGKILL");
        cut = true;
      }
    }
    const first = await running;
    expect(cut).toBe(true);
    expect(first.stdout).toMatch(/^runit\s+runit\s+12\s+\d+\s+\d+\s+\d+\s+failed\s/m);
    expect(first.exitCode, first.stdout + first.stderr).toBe(1);
    const rerun = await lab.tend(["apply", "-f", spec, "--hosts", file]);
    expect(rerun.exitCode, rerun.stdout + rerun.stderr).toBe(0);
    const check = await lab.tend(["plan", "-f", spec, "--hosts", file, "--detailed-exitcode"]);
    expect(check.exitCode, check.stdout).toBe(0);
    expect(await stateListing(host)).toEqual(["lock", "state.json"]);
    expect(await host.mustSh("find /etc/sv /etc/fleet /etc/runit -name '*.tend-*' | wc -l")).toBe("0\n");
    expect((await host.mustExec(["ls", "/etc/sv"])).split("\n").filter((n) => n.startsWith("tend-s")).length).toBe(12);
  });

  it("refuses an apply a host has no room for, from one look over the connection, before anything changes", async () => {
    const host = hosts.openrc;
    const file = lab.inventory("room.hosts.yaml", [lab.entry("openrc", host.id)]);
    const converged = await lab.tend(["apply", "-f", spec, "--hosts", file]);
    expect(converged.exitCode, converged.stdout + converged.stderr).toBe(0);
    // /dev/shm is the container's own 64 MB tmpfs: filled to under 1 MiB free, a 2 MiB file cannot be staged there.
    const big = lab.write("room.yaml", `tend: v1alpha1\ntype: File\nname: big\npath: /dev/shm/tend-room/big\ncontent: "${"x".repeat(2 * 1024 * 1024)}"\n`);
    await host.mustSh("avail=$(df -P -k /dev/shm | awk 'NR == 2 { print $4 }') && head -c $(( (avail - 512) * 1024 )) /dev/zero > /dev/shm/filler");
    try {
      const refused = await lab.tend(["apply", "-f", big, "--hosts", file]);
      expect(refused.exitCode, refused.stdout).toBe(1);
      expect(refused.stderr).toMatch(/TEND_DISK_FULL: apply needs 2\.0 MiB and 1 file on the file system holding \/dev\/shm\/tend-room\/big, which has \d+ KiB and \d+ files free; nothing was changed/);
      // The plan removes motd and web: neither is touched, and nothing reached /dev/shm.
      expect(await host.readFile("/etc/fleet/motd")).toMatch(/^host openrc /);
      expect((await host.exec(["test", "-e", "/dev/shm/tend-room"])).exitCode).toBe(1);
    } finally {
      await host.mustExec(["rm", "-f", "/dev/shm/filler"]);
    }
    const unchanged = await lab.tend(["plan", "-f", spec, "--hosts", file, "--detailed-exitcode"]);
    expect(unchanged.exitCode, unchanged.stdout + unchanged.stderr).toBe(0);
  });

  it("gives a file to a user and group only the host's name service knows (not its /etc/passwd), as chown there would", async () => {
    const host = hosts.runit;
    const file = lab.inventory("directory.hosts.yaml", [lab.entry("runit", host.id, ["facts: { directory: true }"])]);
    const unknown = await lab.tend(["plan", "-f", spec, "--hosts", file]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain("unknown user `ldapuser` on runit");
    // The directory, played by libnss-extrausers: ldapuser is in no file tend reads at detection.
    await host.mustSh("cp /etc/nsswitch.conf /etc/nsswitch.conf.orig && sed -i 's/^passwd:.*/passwd: files extrausers/; s/^group:.*/group: files extrausers/' /etc/nsswitch.conf");
    await host.writeFile("/var/lib/extrausers/passwd", "ldapuser:x:70001:70002:LDAP user:/home/ldapuser:/bin/sh\n");
    await host.writeFile("/var/lib/extrausers/group", "ldapgroup:x:70002:\n");
    try {
      expect((await host.exec(["grep", "-q", "ldapuser", "/etc/passwd", "/etc/group"])).exitCode).toBe(1);
      const apply = await lab.tend(["apply", "-f", spec, "--hosts", file]);
      expect(apply.exitCode, apply.stdout + apply.stderr).toBe(0);
      expect(await host.mustSh("stat -c '%u:%g %a' /etc/fleet/directory.conf")).toBe("70001:70002 640\n");
      const converged = await lab.tend(["plan", "-f", spec, "--hosts", file, "--detailed-exitcode"]);
      expect(converged.exitCode, converged.stdout + converged.stderr).toBe(0);
    } finally {
      await host.mustSh("mv /etc/nsswitch.conf.orig /etc/nsswitch.conf && rm -f /var/lib/extrausers/passwd /var/lib/extrausers/group");
    }
  });
});
