import { overlayStatus, startHost, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doc, spec } from "../support/spec-documents.js";

/**
 * The whole s6-rc path through the tend CLI, against the s6rc image: s6-svscan as PID 1, s6-rc's
 * live state in /run/s6-rc, booted on /etc/s6/db/current. Debian has no s6-rc, so the image needs
 * its programs from TEND_IT_OVERLAY; without them the suite skips and says why.
 *
 * Written from s6-rc's documentation (s6-rc-compile, s6-rc-update, s6-rc-init, s6-rc, s6-rc-db):
 * compiles go to fresh databases, s6-rc-update switches the live state and restarts only what its
 * conversion file names, new services are started by `s6-rc -u change`, `current` follows.
 */

const overlay = overlayStatus("s6rc");
const SPEC = "/spec/tend.yaml";

interface Fleet {
  version: string;
  conf: string;
  /** worker's desired state, when not the default. */
  worker?: string;
  /** Declare web (and what only web needs). */
  web?: boolean;
  crashy?: boolean;
  ready?: boolean;
}

/** The spec, as YAML documents (values JSON-quoted): web after db, a config file that restarts worker and reloads reloader. */
function fleetSpec(fleet: Fleet): string {
  const q = JSON.stringify;
  const docs = [
    `type: Service\nname: db\nexec: ${q("sleep 100000")}\nrestart: on_failure`,
    `type: File\nname: conf\npath: /etc/tend-it/app.conf\ncontent: ${q(fleet.conf)}`,
    `type: Service\nname: worker\nexec: ${q("sleep 100001")}\nrestart: always\nrestartOn: [file:conf]${fleet.worker ? `\ndesired: ${fleet.worker}` : ""}`,
    `type: Service\nname: reloader\nexec: ${q("trap 'echo hup >> /tmp/reloader.hups' HUP; : > /tmp/reloader.ready; while :; do sleep 0.2; done")}\nrestart: always\nreloadOn: [file:conf]\nreloadSignal: HUP`,
  ];
  if (fleet.web !== false) {
    docs.push(
      `type: Service\nname: web\nexec: ${q(`printf '%s|%s' "$VERSION" "$GREETING" > /tmp/web.version; exec sleep 100002`)}\nrestart: always\nafter: [db, network]\n` +
        `env:\n  VERSION: ${q(fleet.version)}\n  GREETING: ${q(`it's "quoted" $HOME`)}`,
    );
  }
  if (fleet.crashy) docs.push(`type: Service\nname: crashy\nexec: ${q("sleep 1; exit 1")}\nrestart: always`);
  if (fleet.ready) docs.push(`type: Service\nname: ready\nexec: ${q("sleep 2; echo ready >&3; exec sleep 100003")}\nrestart: always`);
  return spec(...docs.map(doc));
}

const TITLE = "s6-rc services through the tend CLI";
if (!overlay.available) process.stderr.write(`[s6rc] skipping the s6-rc suite: ${overlay.why}\n`);

describe.skipIf(!overlay.available)(overlay.available ? TITLE : `${TITLE} (skipped: ${overlay.why})`, () => {
  let host: TestHost;
  let fleet: Fleet = { version: "1", conf: "a" };

  beforeAll(async () => {
    host = await startHost("s6rc");
  });

  afterAll(async () => {
    await host?.stop();
  });

  async function declare(next: Fleet): Promise<void> {
    fleet = next;
    await host.writeFile(SPEC, fleetSpec(next));
  }

  const names = (text: string) => text.split("\n").filter(Boolean);
  const upList = async () => names(await host.mustExec(["s6-rc", "-l", "/run/s6-rc", "-a", "list"]));
  const liveServices = async () => names(await host.mustExec(["s6-rc-db", "-l", "/run/s6-rc", "list", "services"]));
  const bootBundle = async () => names(await host.mustExec(["s6-rc-db", "-c", "/etc/s6/db/current", "contents", "tend"]));
  const current = async () => (await host.mustExec(["readlink", "/etc/s6/db/current"])).trim();
  async function svstat(name: string): Promise<{ up: boolean; wantedUp: boolean; ready: boolean; pid: number }> {
    const [up, wantedUp, ready, pid] = (await host.mustExec(["s6-svstat", "-o", "up,wantedup,ready,pid", `/run/s6-rc/servicedirs/tend-${name}`])).trim().split(" ");
    return { up: up === "true", wantedUp: wantedUp === "true", ready: ready === "true", pid: Number(pid) };
  }

  it("serves services with the s6 provider on this host", async () => {
    await declare(fleet);
    expect(await host.expectTend(["providers", "-f", SPEC])).toMatch(/^\* @tend\/provider-s6@\S+\s+service on s6/m);
    const plan = await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toContain("host s6rc-host (s6)");
    expect(plan).toContain("+ service:web  printf");
    expect(plan).toContain("5 to add, 0 to change, 0 to remove");
  });

  it("compiles a fresh database, switches to it, starts every service and verifies it", async () => {
    const before = await current();
    const output = await host.expectTend(["apply", "-f", SPEC]);
    expect(output).toMatch(/service:web: verified/);
    expect(await current()).toBe("tend-g1-a");
    expect(before).toBe("initial");
    await host.mustExec(["test", "-d", "/etc/s6/db/initial"]); // the image's own database stays
    expect(await upList()).toEqual(expect.arrayContaining(["tend-db", "tend-web", "tend-worker", "tend-reloader"]));
    expect((await bootBundle()).sort()).toEqual(["tend-db", "tend-reloader", "tend-web", "tend-worker"]);
    expect(names(await host.mustExec(["s6-rc-db", "-l", "/run/s6-rc", "dependencies", "tend-web"]))).toEqual(["tend-db"]);
    expect(await host.readFile("/tmp/web.version")).toBe(`1|it's "quoted" $HOME`);
    for (const name of ["db", "web", "worker", "reloader"]) expect(await svstat(name)).toMatchObject({ up: true, wantedUp: true });
  });

  it("plans nothing on a second run, and observes what it applied", async () => {
    expect(await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 0 })).toContain("0 to add, 0 to change, 0 to remove");
    const result = await host.tend(["observe", "-f", SPEC, "--json"]);
    expect(result.exitCode).toBe(0);
    const observed = (JSON.parse(result.stdout) as { result: { resources: unknown } }).result.resources as {
      key: string;
      exists: boolean;
      state?: string;
      enabled?: boolean;
    }[];
    expect(observed.find((o) => o.key === "service:web")).toMatchObject({ exists: true, state: "running", enabled: true });
  });

  it("restarts a changed service through the conversion file, so its new definition really runs", async () => {
    const web = await svstat("web");
    const db = await svstat("db");
    await declare({ ...fleet, version: "2" });
    const output = await host.expectTend(["apply", "-f", SPEC]);
    expect(output).toContain("restarting tend-web");
    expect(await host.readFile("/tmp/web.version")).toBe(`2|it's "quoted" $HOME`);
    expect((await svstat("web")).pid).not.toBe(web.pid);
    expect((await svstat("db")).pid).toBe(db.pid);
    expect(await current()).toBe("tend-g2-a");
    await host.mustExec(["test", "-d", "/etc/s6/db/tend-g1-a"]); // old databases stay
  });

  it("restarts on restartOn and reloads on reloadOn (SIGHUP through s6-svc, same process)", async () => {
    await host.waitFor(async () => (await host.exec(["test", "-e", "/tmp/reloader.ready"])).exitCode === 0, { what: "reloader to set its trap" });
    const worker = await svstat("worker");
    const reloader = await svstat("reloader");
    await declare({ ...fleet, conf: "b" });
    const output = await host.expectTend(["apply", "-f", SPEC]);
    expect(output).toMatch(/service:worker: changed, restarted \(file:conf changed, restartOn matched\)/);
    expect(output).toMatch(/service:reloader: changed, reloaded/);
    expect((await svstat("worker")).pid).not.toBe(worker.pid);
    expect((await svstat("reloader")).pid).toBe(reloader.pid);
    await host.waitFor(async () => (await host.exec(["cat", "/tmp/reloader.hups"])).stdout === "hup\n", { what: "reloader to trap SIGHUP" });
    expect(await current()).toBe("tend-g2-a"); // no source definition changed: no compile
  });

  it("reports an edited run file as drift and puts it back", async () => {
    await host.mustSh("echo 'exec sleep 5' >> /etc/s6/sv/tend-web/run");
    const plan = await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toContain("! service:web drifted: /etc/s6/sv/tend-web/run was edited");
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await host.readFile("/etc/s6/sv/tend-web/run")).not.toContain("exec sleep 5");
    expect(await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 0 })).toContain("0 to change");
  });

  it("starts a service s6 stopped behind s6-rc's back (s6-rc still lists it up)", async () => {
    await host.mustExec(["s6-svc", "-d", "/run/s6-rc/servicedirs/tend-worker"]);
    await host.waitFor(async () => !(await svstat("worker")).up, { what: "worker to stop" });
    expect(await upList()).toContain("tend-worker");
    const plan = await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 2 });
    expect(plan).toContain("stopped, want running");
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await svstat("worker")).toMatchObject({ up: true, wantedUp: true });
  });

  it("stops a service and takes it out of the boot bundle when the spec says so", async () => {
    await declare({ ...fleet, worker: "{state: stopped, enabled: false}" });
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await upList()).not.toContain("tend-worker");
    expect(await bootBundle()).not.toContain("tend-worker");
    expect(await liveServices()).toContain("tend-worker");
    expect(await svstat("worker")).toMatchObject({ up: false, wantedUp: false });
    expect((await host.exec(["test", "-e", "/etc/s6/sv/tend/contents.d/tend-worker"])).exitCode).toBe(1);
    expect(await host.expectTend(["plan", "-f", SPEC, "--detailed-exitcode"], { exitCode: 0 })).toContain("0 to change");
  });

  it("waits for a service whose directory has a notification-fd until it says it is ready", async () => {
    // tend writes no notification-fd (it cannot know a program supports it); an admin may add one
    await host.mustExec(["mkdir", "-p", "/etc/s6/sv/tend-ready"]);
    await host.writeFile("/etc/s6/sv/tend-ready/notification-fd", "3\n");
    await declare({ ...fleet, ready: true });
    await host.expectTend(["apply", "-f", SPEC]);
    expect(await svstat("ready")).toMatchObject({ up: true, ready: true });
  });

  it("fails verification for a service that dies after it started, naming it", async () => {
    await declare({ ...fleet, crashy: true });
    const output = await host.expectTend(["apply", "-f", SPEC], { exitCode: 1 });
    expect(output).toMatch(/service:crashy did not verify/);
  });

  it("brings a removed service down before the switch and leaves old databases in place", async () => {
    const webPid = (await svstat("web")).pid;
    await declare({ ...fleet, crashy: false, web: false });
    const output = await host.expectTend(["apply", "-f", SPEC]);
    expect(output).toContain("service:web: removed");
    expect(await liveServices()).not.toContain("tend-web");
    expect(await bootBundle()).not.toContain("tend-web");
    expect((await host.exec(["test", "-e", "/etc/s6/sv/tend-web"])).exitCode).toBe(1);
    expect((await host.exec(["kill", "-0", String(webPid)])).exitCode).not.toBe(0);
    const databases = names(await host.mustExec(["ls", "/etc/s6/db"]));
    expect(databases).toEqual(expect.arrayContaining(["current", "initial", "tend-g1-a", "tend-g2-a"]));
    expect(databases).toContain(await current());
    expect(await upList()).toEqual(expect.arrayContaining(["tend-db", "tend-reloader", "tend-ready"]));
  });

  it("applies into an image root offline: compiles and points current there, touches nothing live", async () => {
    const live = await upList();
    const liveDb = await current();
    await host.expectTend(["apply", "-f", SPEC, "--init", "s6", "--root", "/tmp/image"]);
    expect((await host.mustExec(["readlink", "/tmp/image/etc/s6/db/current"])).trim()).toBe("tend-g1-a");
    expect(names(await host.mustExec(["s6-rc-db", "-c", "/tmp/image/etc/s6/db/current", "contents", "tend"])).sort()).toEqual(["tend-db", "tend-ready", "tend-reloader"]);
    expect(await upList()).toEqual(live);
    expect(await current()).toBe(liveDb);
  });
});
