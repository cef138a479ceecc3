/**
 * The container harness itself: every image boots its init as PID 1 with node and the tend
 * checkout mounted and no network but loopback, and TestHost does what the provider suites rely on.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureImages, overlayStatus, startHost, type TestHost, type TestImageName } from "@tend/testkit/harness";
import { NOTHING } from "../support/spec-documents.js";

/** What /proc/1/comm reads on each host once booted. */
const PID_1: Record<TestImageName, string> = {
  systemd: "systemd",
  runit: "runsvdir",
  openrc: "init",
  s6: "s6-svscan",
  cron: "runsvdir",
  dinit: "dinit",
  s6rc: "s6-svscan",
  supervisord: "supervisord",
};

/** A check only the init of that host can pass. */
const INIT_CHECKS: Record<TestImageName, { what: string; check: (host: TestHost) => Promise<void> }> = {
  systemd: {
    what: "alice's lingering user manager answers her systemctl --user, and ssh is a distro unit",
    check: async (host) => {
      const user = await host.exec(["systemctl", "--user", "is-system-running"], { user: "alice" });
      expect(user.stdout.trim()).toMatch(/^(running|degraded)$/);
      expect((await host.sh("systemctl is-enabled ssh.service")).stdout.trim()).toBe("enabled");
    },
  },
  runit: {
    what: "runsvdir supervises Debian's default-syslog from /etc/service",
    check: async (host) => {
      expect((await host.sh("readlink -f /etc/service")).stdout.trim()).toBe("/etc/runit/runsvdir/default");
      expect((await host.sh("sv status default-syslog")).stdout).toMatch(/^run: default-syslog: \(pid \d+\)/);
    },
  },
  openrc: {
    what: "OpenRC reached the default runlevel with nothing stopped in sysinit or default",
    check: async (host) => {
      expect((await host.sh("rc-status --runlevel")).stdout.trim()).toBe("default");
      const notStarted = await host.sh("rc-status sysinit default | grep -v -e '^Runlevel' -e started || true");
      expect(notStarted.stdout).toBe("");
    },
  },
  s6: {
    what: "s6-svscan starts a service linked into /run/service (a tmpfs that allows exec)",
    check: async (host) => startS6Service(host),
  },
  cron: {
    what: "cron runs as a runit service",
    check: async (host) => {
      expect((await host.sh("sv status cron")).stdout).toMatch(/^run: cron: \(pid \d+\)/);
      expect((await host.sh("pgrep -x cron")).exitCode).toBe(0);
    },
  },
  dinit: {
    what: "dinit enables a service through the boot service",
    check: async (host) => {
      await host.writeFile("/etc/dinit.d/probe", "type = process\ncommand = /bin/sleep 1000\nrestart = no\n");
      const enable = await host.sh("dinitctl enable probe");
      expect(enable.exitCode, enable.stdout + enable.stderr).toBe(0);
      await host.waitFor(async () => (await host.sh("dinitctl is-started probe")).exitCode === 0, { what: "probe to start" });
      expect((await host.sh("readlink /etc/dinit.d/boot.d/probe")).exitCode).toBe(0);
    },
  },
  s6rc: {
    what: "s6-rc-init made /run/s6-rc live from /etc/s6/db/current, with the tend bundle",
    check: async (host) => {
      expect((await host.sh("s6-rc-db -l /run/s6-rc type tend")).stdout.trim()).toBe("bundle");
      expect((await host.sh("readlink /etc/s6/db/current")).stdout.trim()).toBe("initial");
      await startS6Service(host);
    },
  },
  supervisord: {
    what: "supervisord loads and starts a program from /etc/supervisor/conf.d",
    check: async (host) => {
      await host.writeFile("/etc/supervisor/conf.d/probe.conf", "[program:probe]\ncommand=/bin/sleep 1000\n");
      expect(await host.mustExec(["supervisorctl", "update", "probe"])).toBe("probe: added process group\n");
      await host.waitFor(async () => (await host.exec(["supervisorctl", "status", "probe"])).stdout.includes("RUNNING"), { what: "the probe program to run" });
    },
  },
};

async function startS6Service(host: TestHost): Promise<void> {
  await host.sh("mkdir -p /tmp/probe-sv");
  await host.writeFile("/tmp/probe-sv/run", "#!/bin/sh\nexec sleep 1000\n", { mode: 0o755 });
  expect((await host.sh("cp -a /tmp/probe-sv /run/service/probe && s6-svscanctl -a /run/service")).exitCode).toBe(0);
  await host.waitFor(async () => (await host.sh("s6-svstat /run/service/probe")).stdout.startsWith("up "), {
    what: "the probe service to be up",
  });
}

for (const name of Object.keys(PID_1) as TestImageName[]) {
  const status = overlayStatus(name);
  const title = status.available ? `the ${name} host` : `the ${name} host (skipped: ${status.why})`;

  describe.skipIf(!status.available)(title, () => {
    let host: TestHost;
    beforeAll(async () => {
      host = await startHost(name);
    });
    afterAll(async () => {
      await host?.stop();
    });

    it(`boots ${PID_1[name]} as PID 1`, async () => {
      expect((await host.readFile("/proc/1/comm")).trim()).toBe(PID_1[name]);
    });

    it(INIT_CHECKS[name].what, async () => {
      await INIT_CHECKS[name].check(host);
    });

    it("runs the mounted node, as root and as alice", async () => {
      expect(await host.exec(["node", "-e", "console.log(1)"])).toEqual({ exitCode: 0, stdout: "1\n", stderr: "" });
      const asAlice = await host.exec(["node", "-e", "console.log(process.getuid(), require('os').homedir())"], { user: "alice" });
      expect(asAlice.stdout).toBe("1000 /home/alice\n");
    });

    it("has no network but loopback", async () => {
      expect((await host.sh("ls /sys/class/net")).stdout.split(/\s+/).filter(Boolean)).toEqual(["lo"]);
      const connect = await host.exec([
        "node",
        "-e",
        "require('net').connect(53, '1.1.1.1').on('connect', () => console.log('connected')).on('error', (e) => console.log(e.code))",
      ]);
      expect(connect.stdout.trim()).toBe("ENETUNREACH");
    });

    it("mounts the tend checkout read-only at /opt/tend and runs the built CLI from it", async () => {
      expect(JSON.parse(await host.readFile("/opt/tend/package.json")).name).toBe("tend-monorepo");
      expect((await host.sh("touch /opt/tend/written-by-a-test")).stderr).toMatch(/Read-only file system/);
      const providers = await host.tend(["providers"]);
      expect(providers.exitCode, providers.stderr).toBe(0);
      expect(providers.stdout).toMatch(/^host init: /);
    });
  });
}

describe("a TestHost", () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startHost("runit");
  });
  afterAll(async () => {
    await host?.stop();
  });

  it("writes files with a mode and an owner, creating parents, and reads them back", async () => {
    await host.writeFile("/spec/deep/tend.yaml", "tend: v1alpha1\n", { mode: 0o600, owner: "alice" });
    expect(await host.readFile("/spec/deep/tend.yaml")).toBe("tend: v1alpha1\n");
    expect((await host.sh("stat -c '%a %U' /spec/deep/tend.yaml")).stdout).toBe("600 alice\n");
    await expect(host.readFile("/spec/missing")).rejects.toThrow(/cat -- \/spec\/missing` exited 1/);
  });

  it("writes into a tmpfs such as /run, which Docker's copy API cannot reach", async () => {
    await host.writeFile("/run/tend-probe/x", "in run\n", { mode: 0o640 });
    expect((await host.sh("cat /run/tend-probe/x; stat -c %a /run/tend-probe/x")).stdout).toBe("in run\n640\n");
  });

  it("runs commands as a user with that user's login variables", async () => {
    const env = await host.sh('echo "$(id -un) $HOME $USER $LOGNAME"', { user: "alice", cwd: "/tmp" });
    expect(env.stdout).toBe("alice /home/alice alice alice\n");
    expect((await host.exec(["pwd"], { cwd: "/tmp" })).stdout).toBe("/tmp\n");
    expect((await host.sh('echo "$GREETING"', { env: { GREETING: "hi there" } })).stdout).toBe("hi there\n");
  });

  it("returns a failing command's exit code and output instead of throwing", async () => {
    expect(await host.sh("echo out; echo err >&2; exit 3")).toEqual({ exitCode: 3, stdout: "out\n", stderr: "err\n" });
  });

  it("mustExec and mustSh return stdout alone, with the options of exec", async () => {
    expect(await host.mustExec(["printf", "%s|", "no shell: $HOME", "two  spaces"])).toBe("no shell: $HOME|two  spaces|");
    expect(await host.mustSh("echo out; echo err >&2")).toBe("out\n");
    expect(await host.mustSh('echo "$(id -un) $PWD $GREETING"', { user: "alice", cwd: "/tmp", env: { GREETING: "hi" } })).toBe("alice /tmp hi\n");
    expect(await host.mustExec(["id", "-un"], { user: "alice" })).toBe("alice\n");
  });

  it("mustExec and mustSh throw on a non-zero exit with the command, the host and the whole output", async () => {
    await expect(host.mustSh("echo out; echo err >&2; exit 3")).rejects.toThrow(
      new Error("`echo out; echo err >&2; exit 3` exited 3 on the runit host\nout\nerr"),
    );
    await expect(host.mustExec(["cat", "--", "/no/such"], { user: "alice" })).rejects.toThrow(
      /^`cat -- \/no\/such` exited 1 on the runit host as alice\ncat: \/no\/such: No such file or directory$/,
    );
  });

  it("expectTend returns tend's stdout and stderr when it exits with the expected code", async () => {
    expect(await host.expectTend(["providers"])).toMatch(/^host init: runit$/m);
    await host.writeFile("/spec/empty.yaml", NOTHING);
    expect(await host.expectTend(["plan", "--user", "-f", "/spec/empty.yaml"], { user: "alice" })).toMatch(/^host \S+ \(runit, user alice\)$/m);
    // tend reports a missing spec on stderr
    expect(await host.expectTend(["plan", "-f", "/spec/missing.yaml"], { exitCode: 1 })).toContain("spec file /spec/missing.yaml does not exist");
  });

  it("expectTend throws with the command, tend's output and the host's logs when the exit code differs", async () => {
    const failure = host.expectTend(["plan", "-f", "/spec/missing.yaml"], { user: "alice" });
    await expect(failure).rejects.toThrow(/^`tend plan -f \/spec\/missing\.yaml` exited 1, not 0, on the runit host as alice\n/);
    await expect(failure).rejects.toThrow(/\nerror \S+: spec file \/spec\/missing\.yaml does not exist\n[^]*\n== runit host [0-9a-f]{12}: [^]*run: \/etc\/service\/default-syslog/);
    await expect(host.expectTend(["providers"], { exitCode: 2 })).rejects.toThrow(/^`tend providers` exited 0, not 2, on the runit host\nhost init: runit\n/);
  });

  it("kills a command that outlives its timeout and says so", async () => {
    await expect(host.exec(["sleep", "30"], { timeoutMs: 1000 })).rejects.toThrow(/`sleep 30` did not finish within 1 s/);
  });

  it("waitFor resolves with the first truthy result", async () => {
    let calls = 0;
    expect(await host.waitFor(async () => ++calls >= 3 && calls, { what: "three calls", intervalMs: 10 })).toBe(3);
  });

  it("waitFor times out naming what it waited for, with the host's logs", async () => {
    const failure = host.waitFor(async () => false, { what: "a thing that never happens", timeoutMs: 500 });
    await expect(failure).rejects.toThrow(/timed out after 0.5 s waiting for a thing that never happens/);
    await expect(failure).rejects.toThrow(/run: \/etc\/service\/default-syslog/);
  });

  it("logs() shows the init's view and the container's output", async () => {
    const logs = await host.logs();
    expect(logs).toMatch(/== runit host [0-9a-f]{12}: /);
    expect(logs).toMatch(/runsvdir log: runsvdir -P \/etc\/service/);
    expect(logs).toMatch(/== container output/);
  });

  it("stop() removes the container and may be called twice", async () => {
    const other = await startHost("s6");
    await other.stop();
    await other.stop();
    expect(() => execFileSync("docker", ["inspect", other.id], { stdio: "pipe" })).toThrow();
  });

  it("fails fast with the container's output when the init dies while booting, and removes it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tend-it-boot-"));
    writeFileSync(join(dir, "boot"), "#!/bin/sh\necho 'boot failed on purpose'\nexit 3\n", { mode: 0o755 });
    const started = Date.now();
    const failure = startHost("runit", { mounts: [{ source: join(dir, "boot"), target: "/usr/local/sbin/tend-it-boot", readOnly: true }] });
    const message = await failure.then(() => "", (error: Error) => error.message);
    expect(message).toMatch(/^the runit host stopped while booting \(container exited\)[^]*boot failed on purpose/);
    expect(Date.now() - started).toBeLessThan(20_000);
    const id = /== runit host ([0-9a-f]{12}):/.exec(message)?.[1];
    expect(id).toBeDefined();
    expect(() => execFileSync("docker", ["inspect", id!], { stdio: "pipe" })).toThrow();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds every image already built on a second ensureImages, in well under a second", async () => {
    const started = Date.now();
    const tags = await ensureImages(["systemd", "runit", "openrc", "s6", "cron"]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(Object.values(tags).every((tag) => /^tend-it-[a-z0-9]+:[0-9a-f]{16}$/.test(tag ?? ""))).toBe(true);
  });
});
