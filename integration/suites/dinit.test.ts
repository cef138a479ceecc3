import { overlayStatus, startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * @tend/provider-dinit through the tend CLI against a real dinit, PID 1 of the dinit image
 * (`dinit --container`, boot service with `waits-for.d = /etc/dinit.d/boot.d`). Debian packages no
 * dinit: the image exists only when TEND_IT_OVERLAY/dinit holds its binaries (see
 * packages/testkit/images/README.md); without them the suite is skipped, saying why. alice's own
 * dinit (`dinit --user`) runs as a system service of the test, as a login manager would start it.
 *
 * The tests run in order and build on each other, as an admin's successive applies would.
 */

const overlay = overlayStatus("dinit");

const SYSTEM_SPEC = "/spec/system.yaml";
const ALICE_SPEC = "/spec/alice.yaml";

/** YAML documents, written as JSON (which YAML reads as is) so no value needs YAML escaping. */
function spec(...documents: Record<string, unknown>[]): string {
  return documents.map((doc) => JSON.stringify({ tend: "v1alpha1", ...doc })).join("\n---\n") + "\n";
}

/** A value dinit would mangle unescaped (`$HOME`, quotes, `#`, a backslash) and sh must not expand. */
const GREETING = `it's $HOME "q" #1 \\ 100% \`id\``;

/** Waits until /var/tmp/tend-test/<name> exists, then exits with the code written in it. */
const untilFlag = (name: string) => `while [ ! -e /var/tmp/tend-test/${name} ]; do sleep 0.2; done; exit "$(cat /var/tmp/tend-test/${name})"`;

const web = {
  type: "Service",
  name: "web",
  exec: `echo web starting; printf '%s|%s|%s\\n' "$GREETING" "$(id -un)" "$0" > /var/tmp/tend-web.out; exec sleep 100001`,
  restart: "on_failure",
  after: ["network"],
  env: { GREETING },
  description: "The web server",
};
const api = { type: "Service", name: "api", exec: "/bin/sleep 100002", restart: "always", after: ["web"] };
const always = { type: "Service", name: "pol-always", exec: untilFlag("pol-always"), restart: "always" };
const onFailure = { type: "Service", name: "pol-failure", exec: untilFlag("pol-failure"), restart: "on_failure" };
const never = { type: "Service", name: "pol-no", exec: untilFlag("pol-no") };
const distro = { type: "Service", name: "distro-echo" };
const conf = { type: "File", name: "hup-conf", path: "/etc/tend-hup.conf", content: "v1\n" };
const hup = {
  type: "Service",
  name: "hup",
  exec: `trap 'echo hup >> /var/tmp/tend-hup.log' HUP; while :; do sleep 0.2; done`,
  restart: "always",
  reloadSignal: "HUP",
  reloadOn: ["File[hup-conf]"],
};
const BASE = [web, api, always, onFailure, never, distro, conf, hup];
/** web with a new command, and the conf file with new content (later steps). */
const web2 = { ...web, exec: web.exec.replace("sleep 100001", "sleep 100011") };
const conf2 = { ...conf, content: "v2\n" };
const flaky = { type: "Service", name: "flaky", exec: "echo flaky says goodbye; sleep 1; exit 3" };

describe.skipIf(!overlay.available)("dinit services under a real dinit", () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startHost("dinit");
    await host.mustExec(["mkdir", "-p", "/var/tmp/tend-test"]);
    // A service a package would ship: tend only enables and disables it.
    await host.writeFile("/lib/dinit.d/distro-echo", "type = process\ncommand = /bin/sleep 100009\nrestart = false\n");
    // alice's service manager, started the way a login manager (turnstile) would.
    for (const dir of ["/home/alice/.config", "/home/alice/.config/dinit.d", "/home/alice/.config/dinit.d/boot.d"]) {
      await host.mustExec(["install", "-d", "-o", "alice", "-g", "alice", dir]);
    }
    await host.writeFile("/home/alice/.config/dinit.d/boot", "type = internal\nwaits-for.d = boot.d\n", { owner: "alice:alice" });
    await host.writeFile(
      "/etc/dinit.d/alice-dinit",
      "type = process\ncommand = /bin/sh -c \"exec dinit --user --quiet\"\nrun-as = alice\nload-options = export-passwd-vars\nrestart = true\n",
    );
    await host.mustExec(["dinitctl", "start", "alice-dinit"]);
    await host.waitFor(async () => (await host.exec(["dinitctl", "--user", "list"], { user: "alice" })).exitCode === 0, {
      timeoutMs: 20_000,
      what: "alice's dinit to listen",
    });
  }, 900_000);

  afterAll(async () => {
    await host?.stop();
  });

  /** One line of `dinitctl list` for a service, parsed: started or not, pid. */
  async function listed(name: string, user?: string): Promise<{ line: string; started: boolean; pid?: number } | undefined> {
    const output = await host.mustExec(user ? ["dinitctl", "--user", "list"] : ["dinitctl", "list"], user ? { user } : {});
    const line = output.split("\n").find((l) => l.endsWith(`] ${name}`) || l.includes(`] ${name} (`));
    if (!line) return undefined;
    const pid = /\(pid: (\d+)\)/.exec(line)?.[1];
    return { line, started: line[2] === "+", ...(pid ? { pid: Number(pid) } : {}) };
  }
  const exists = async (path: string) => (await host.exec(["test", "-e", path])).exitCode === 0 || (await host.exec(["test", "-L", path])).exitCode === 0;
  const flag = (name: string, code: number) => host.writeFile(`/var/tmp/tend-test/${name}`, `${code}\n`);
  const unflag = (name: string) => host.mustExec(["rm", "-f", `/var/tmp/tend-test/${name}`]);

  it("serves services with the dinit provider", async () => {
    expect(await host.expectTend(["providers"])).toMatch(/^\* @tend\/provider-dinit@\S+\s+service on dinit/m);
  });

  it("refuses, at plan, a service after network on a host with no dinit service named network", async () => {
    await host.writeFile(SYSTEM_SPEC, spec(...BASE));
    const output = await host.expectTend(["plan", "-f", SYSTEM_SPEC], { exitCode: 1 });
    expect(output).toContain(
      "service:web orders itself after `network`, which dinit reads as `depends-on = network`, but this host has no dinit service named `network`",
    );
    expect(await exists("/etc/dinit.d/tend-web")).toBe(false);
  });

  it("refuses, at plan, a distro service whose description does not exist", async () => {
    await host.writeFile("/spec/missing.yaml", spec({ type: "Service", name: "no-such-daemon" }));
    expect(await host.expectTend(["plan", "-f", "/spec/missing.yaml"], { exitCode: 1 })).toContain(
      "service:no-such-daemon has no exec, but /etc/dinit.d/no-such-daemon does not exist; install the package that ships it",
    );
  });

  it("adds services: writes, enables and starts them, and they verify", async () => {
    await host.writeFile("/etc/dinit.d/network", "type = internal\n");
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC]);
    expect(plan).toContain("+ service:web");
    expect(plan).toContain("+ service:distro-echo  enable the distro unit");
    const output = await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    for (const name of ["web", "api", "pol-always", "pol-failure", "pol-no", "hup"]) expect(output).toContain(`service:${name}: verified`);

    expect(await host.readFile("/etc/dinit.d/tend-web")).toBe(
      [
        "# Managed by tend. Edits are overwritten on the next apply.",
        "# description: The web server",
        "type = process",
        `command = /usr/bin/env "GREETING=it's $$HOME \\"q\\" #1 \\\\ 100% \`id\`" /bin/sh -c "echo web starting; printf '%s|%s|%s\\\\n' \\"$$GREETING\\" \\"$$(id -un)\\" \\"$$0\\" > /var/tmp/tend-web.out; exec sleep 100001"`,
        "restart = on-failure",
        "depends-on = network",
        "logfile = /var/log/tend-web.log",
        "",
      ].join("\n"),
    );
    expect((await host.mustExec(["stat", "-c", "%a %U", "/etc/dinit.d/tend-web"])).trim()).toBe("644 root");
    // dinit passed the environment and the script through untouched, and sh did the rest.
    expect(await host.readFile("/var/tmp/tend-web.out")).toBe(`${GREETING}|root|/bin/sh\n`);
    expect(await host.readFile("/var/log/tend-web.log")).toContain("web starting");

    for (const name of ["tend-web", "tend-api", "tend-pol-always", "tend-pol-failure", "tend-pol-no", "tend-hup", "distro-echo"]) {
      expect((await listed(name))?.started, name).toBe(true);
      expect(await exists(`/etc/dinit.d/boot.d/${name}`), `${name} enabled`).toBe(true);
    }
    // The distro's own description is left where it is; tend wrote nothing for it.
    expect(await exists("/etc/dinit.d/distro-echo")).toBe(false);
  });

  it("has nothing to do on the next plan", async () => {
    const output = await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
    expect(output).toContain("0 to add, 0 to change, 0 to remove");
  });

  it("orders a service after another tend service with a real dinit dependency", async () => {
    // dinit will not stop tend-web under tend-api without --force: the dependency is dinit's own.
    const refused = await host.exec(["dinitctl", "stop", "tend-web"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("due to the following dependents");
    expect(refused.stderr).toContain("tend-api");
    // Forced, the stop takes tend-api down with it; starting tend-api brings tend-web up first.
    await host.mustExec(["dinitctl", "stop", "--force", "tend-web"]);
    await host.mustExec(["dinitctl", "start", "tend-api"]);
    expect((await listed("tend-web"))?.started).toBe(true);
    expect((await listed("tend-api"))?.started).toBe(true);
  });

  it("follows the restart policies: always and on_failure come back after a crash, no stays down", async () => {
    const before = new Map<string, number>();
    for (const name of ["pol-always", "pol-failure", "pol-no"]) before.set(name, (await listed(`tend-${name}`))!.pid!);
    for (const pid of before.values()) await host.mustExec(["kill", "-KILL", String(pid)]);
    for (const name of ["pol-always", "pol-failure"]) {
      await host.waitFor(async () => {
        const now = await listed(`tend-${name}`);
        return now?.started && now.pid !== before.get(name);
      }, { timeoutMs: 10_000, what: `tend-${name} to be restarted by dinit` });
    }
    await host.waitFor(async () => (await listed("tend-pol-no"))?.line.includes("{X}"), { timeoutMs: 10_000, what: "tend-pol-no to stay down" });

    // A clean exit (status 0) ends an on_failure service for good.
    await flag("pol-failure", 0);
    await host.waitFor(async () => (await listed("tend-pol-failure"))?.line.includes("{-}"), { timeoutMs: 10_000, what: "tend-pol-failure to stop" });
    // Well past dinit's restart delay (0.2 s), neither came back.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await listed("tend-pol-no"))?.started).toBe(false);
    expect((await listed("tend-pol-failure"))?.started).toBe(false);
    await unflag("pol-failure");
  });

  it("starts again what stopped, as drift", async () => {
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toMatch(/~ service:pol-no\s+start/);
    expect(plan).toMatch(/~ service:pol-failure\s+start/);
    expect(plan).toContain("stopped, want running");
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect((await listed("tend-pol-no"))?.started).toBe(true);
    expect((await listed("tend-pol-failure"))?.started).toBe(true);
  });

  it("enables again what was disabled behind its back", async () => {
    await host.mustExec(["dinitctl", "disable", "tend-api"]);
    expect(await exists("/etc/dinit.d/boot.d/tend-api")).toBe(false);
    expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).toContain("not enabled at boot, want enabled");
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await exists("/etc/dinit.d/boot.d/tend-api")).toBe(true);
  });

  it("disables a service that must keep running without stopping it", async () => {
    // Released, tend-pol-always runs only because boot waits for it: a bare disable would stop it.
    await host.mustExec(["dinitctl", "--no-wait", "release", "tend-pol-always"]);
    expect((await listed("tend-pol-always"))?.line).toMatch(/^\[\{\+\}/);
    const pid = (await listed("tend-pol-always"))!.pid;
    await host.writeFile(SYSTEM_SPEC, spec(web, api, { ...always, desired: { state: "running", enabled: false } }, onFailure, never, distro, conf, hup));
    expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).toMatch(/~ service:pol-always\s+disable/);
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await exists("/etc/dinit.d/boot.d/tend-pol-always")).toBe(false);
    expect((await listed("tend-pol-always"))?.pid).toBe(pid);
    await host.writeFile(SYSTEM_SPEC, spec(...BASE));
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await exists("/etc/dinit.d/boot.d/tend-pol-always")).toBe(true);
  });

  it("reports an edited description as drift, rewrites it, and dinit runs the rewritten one", async () => {
    const path = "/etc/dinit.d/tend-api";
    const pid = (await listed("tend-api"))!.pid;
    await host.writeFile(path, (await host.readFile(path)).replace("sleep 100002", "sleep 100077"));
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toContain(`! service:api drifted: ${path} was edited`);
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await host.readFile(path)).toContain("command = /bin/sleep 100002");
    const now = await listed("tend-api");
    expect(now?.started).toBe(true);
    expect(now?.pid).not.toBe(pid);
    expect((await host.mustExec(["ps", "-o", "args=", "-p", String(now!.pid)])).trim()).toBe("/bin/sleep 100002");
  });

  it("restarts a changed service, and the services that depend on it, on its new command", async () => {
    const apiPid = (await listed("tend-api"))!.pid;
    await host.writeFile(SYSTEM_SPEC, spec(web2, api, always, onFailure, never, distro, conf, hup));
    const output = await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(output).toContain("service:web: verified");
    const now = await listed("tend-web");
    expect((await host.mustExec(["ps", "-o", "args=", "-p", String(now!.pid)])).trim()).toBe("sleep 100011");
    // restart --force: dinit restarted the dependent too, and it runs.
    const api2 = await listed("tend-api");
    expect(api2?.started).toBe(true);
    expect(api2?.pid).not.toBe(apiPid);
    await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
  });

  it("sends reloadSignal with dinitctl signal when a reloadOn file changes, without restarting", async () => {
    const pid = (await listed("tend-hup"))!.pid;
    await host.writeFile(SYSTEM_SPEC, spec(web2, api, always, onFailure, never, distro, conf2, hup));
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC]);
    expect(plan).toMatch(/~ service:hup\s+reload/);
    expect(plan).toContain("file:hup-conf changed, reloadOn matched");
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    await host.waitFor(async () => (await host.exec(["cat", "/var/tmp/tend-hup.log"])).stdout === "hup\n", { timeoutMs: 10_000, what: "tend-hup to get SIGHUP" });
    expect((await listed("tend-hup"))?.pid).toBe(pid);
  });

  it("fails verification for a service that dies after starting, with its log lines", async () => {
    await host.writeFile(SYSTEM_SPEC, spec(web2, api, always, onFailure, never, distro, conf2, hup, flaky));
    const output = await host.expectTend(["apply", "-f", SYSTEM_SPEC], { exitCode: 1 });
    expect(output).toContain("service:flaky did not verify");
    expect(output).toContain("flaky says goodbye");
    expect(output).toContain("/var/log/tend-flaky.log:");
    // The others were not disturbed.
    expect(output).not.toContain("service:web did not verify");
  });

  it("removes services: stops, disables and unloads them, deletes their files, and only disables a distro service", async () => {
    await host.writeFile(SYSTEM_SPEC, spec(web2, api, conf2, hup));
    const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC]);
    for (const name of ["pol-always", "pol-failure", "pol-no", "distro-echo", "flaky"]) expect(plan).toContain(`- service:${name}`);
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    for (const name of ["pol-always", "pol-failure", "pol-no", "flaky"]) {
      expect(await listed(`tend-${name}`), name).toBeUndefined();
      expect(await exists(`/etc/dinit.d/tend-${name}`)).toBe(false);
      expect(await exists(`/etc/dinit.d/boot.d/tend-${name}`)).toBe(false);
    }
    expect(await exists("/etc/dinit.d/boot.d/distro-echo")).toBe(false);
    expect(await exists("/lib/dinit.d/distro-echo")).toBe(true);
    expect((await listed("distro-echo"))?.started).not.toBe(true);
    await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
  });

  describe("user services, under alice's own dinit", () => {
    const sync = {
      type: "Service",
      name: "sync",
      user: true,
      exec: `echo sync up; printf '%s|%s\\n' "$(id -un)" "$HOME" > "$HOME/tend-sync.out"; exec sleep 100021`,
      restart: "always",
      after: ["network"],
    };

    it("adds a user service as alice: in ~/.config/dinit.d, enabled from her boot, running as her", async () => {
      await host.writeFile(ALICE_SPEC, spec(sync), { owner: "alice:alice" });
      const output = await host.expectTend(["apply", "--user", "-f", ALICE_SPEC], { user: "alice" });
      expect(output).toContain("service:sync: verified");
      const path = "/home/alice/.config/dinit.d/tend-sync";
      expect(await host.readFile(path)).not.toContain("depends-on");
      expect((await host.mustExec(["stat", "-c", "%a %U", path])).trim()).toBe("644 alice");
      expect(await host.readFile("/home/alice/tend-sync.out")).toBe("alice|/home/alice\n");
      expect(await host.readFile("/home/alice/.local/state/tend/log/tend-sync.log")).toContain("sync up");
      expect((await listed("tend-sync", "alice"))?.started).toBe(true);
      expect(await exists("/home/alice/.config/dinit.d/boot.d/tend-sync")).toBe(true);
      expect(await listed("tend-sync")).toBeUndefined();
    });

    it("has nothing to do on the next plan, as alice or as root for alice", async () => {
      await host.expectTend(["plan", "--user", "-f", ALICE_SPEC, "--detailed-exitcode"], { user: "alice" });
      await host.expectTend(["plan", "--user", "alice", "-f", ALICE_SPEC, "--detailed-exitcode"]);
    });

    it("restarts it when changed, driven by root for alice", async () => {
      const pid = (await listed("tend-sync", "alice"))!.pid;
      await host.writeFile(ALICE_SPEC, spec({ ...sync, exec: sync.exec.replace("100021", "100022") }), { owner: "alice:alice" });
      await host.expectTend(["apply", "--user", "alice", "-f", ALICE_SPEC]);
      const now = await listed("tend-sync", "alice");
      expect(now?.pid).not.toBe(pid);
      expect((await host.mustExec(["ps", "-o", "user=,args=", "-p", String(now!.pid)])).trim()).toMatch(/^alice\s+sleep 100022$/);
    });

    it("removes it", async () => {
      await host.writeFile(ALICE_SPEC, "", { owner: "alice:alice" });
      await host.expectTend(["apply", "--user", "-f", ALICE_SPEC], { user: "alice" });
      expect(await listed("tend-sync", "alice")).toBeUndefined();
      expect(await exists("/home/alice/.config/dinit.d/tend-sync")).toBe(false);
      expect(await exists("/home/alice/.config/dinit.d/boot.d/tend-sync")).toBe(false);
    });
  });
});

describe.skipIf(overlay.available)("dinit services under a real dinit (skipped)", () => {
  it.skip(`needs the dinit image: ${overlay.available ? "" : overlay.why}`, () => undefined);
});
