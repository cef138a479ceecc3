import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tendInFolder } from "./__fixtures__/tend-in-folder.js";
import { COMMANDS } from "./command-line/parse-command-line.js";
import { imageRoot, withCron } from "./__fixtures__/image-root.js";

const cli = tendInFolder;

async function specDir(yaml: string) {
  const dir = await mkdtemp(join(tmpdir(), "tend-cli-"));
  await writeFile(join(dir, "tend.yaml"), yaml);
  return dir;
}

describe("tend", () => {
  it.each(COMMANDS)("has help for %s", async (command) => {
    const result = await cli([command, "--help"]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(command === "help" ? /^tend — / : new RegExp(`^Usage: tend ${command}`));
  });

  it("prints its version", async () => {
    expect((await cli(["--version"])).out).toBe("tend 9.9.9\n");
  });

  it("takes --lock-timeout from 0 to a year of seconds, and says so for anything else (1e308 overflowed flock's timer)", async () => {
    for (const value of ["abc", "1e308", "31536001", "Infinity"]) {
      const result = await cli(["apply", "--lock-timeout", value]);
      expect(result.code, value).toBe(1);
      expect(result.err).toMatch(/^error TEND_USAGE: --lock-timeout takes a number of seconds, 0 to 31536000 \(a year\)/);
    }
    expect((await cli(["apply", "--lock-timeout=-5"])).err).toContain("--lock-timeout takes a number of seconds, 0 to 31536000");
  });

  it("prints one clear error for an unknown flag or command", async () => {
    const flag = await cli(["plan", "--frobnicate"]);
    expect(flag.code).toBe(1);
    expect(flag.err).toMatch(/^error TEND_USAGE: unknown flag `--frobnicate` for `tend plan`/);
    expect((await cli(["deploy"])).err).toContain("unknown command `deploy`");
  });

  it("never ignores a word a command takes none of: apply of one reference would have applied the whole spec", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n");
    const root = await imageRoot(dir, "r");
    const apply = await cli(["apply", "service:web", "--init", "runit", "--root", root], dir);
    expect([apply.code, apply.out]).toEqual([1, ""]);
    expect(apply.err).toMatch(/^error TEND_USAGE: tend apply takes no resource references \(`service:web`\): it applies the whole spec of this scope; tend plan shows all it would change\n/);
    expect((await cli(["plan", "tend.yaml"], dir)).err).toMatch(/^error TEND_USAGE: tend plan takes the spec with -f: tend plan -f tend.yaml\n/);
    expect((await cli(["validate", "Service[web]"], dir)).err).toContain("tend validate takes no resource references (`Service[web]`): it checks the whole spec");
    expect((await cli(["providers", "now"], dir)).err).toContain("tend providers takes no word `now` besides its flags");
    // Nothing was applied.
    expect(await readdir(root)).toEqual([]);
    // observe and render take references; --user takes a name.
    expect((await cli(["render", "service:web", "--init", "runit"], dir)).code).toBe(0);
    expect((await cli(["plan", "--user", "root", "--init", "runit", "--root", root], dir)).code).toBe(0);
  });

  it("refuses a flag given twice with two values, never taking the last: a script's second -f would apply another spec", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n");
    await writeFile(join(dir, "other.yaml"), "tend: v1alpha1\ntype: File\nname: f\npath: /etc/f\ncontent: x\n");
    const root = await imageRoot(dir, "r");
    const twice = await cli(["apply", "-f", "tend.yaml", "--init", "runit", "--root", root, "--file=other.yaml"], dir);
    expect([twice.code, twice.out]).toEqual([1, ""]);
    expect(twice.err).toMatch(/^error TEND_USAGE: --file is given twice, `tend.yaml` and `other.yaml`: give it once\n/);
    expect((await cli(["plan", "--init", "runit", "--init", "systemd", "--root", root], dir)).err).toMatch(/^error TEND_USAGE: --init is given twice, `runit` and `systemd`: give it once\n/);
    expect((await cli(["plan", "--user", "--user", "alice", "--init", "runit", "--root", root], dir)).err).toMatch(/^error TEND_USAGE: --user is given twice, without a value and `alice`: give it once\n/);
    expect(await readdir(root)).toEqual([]);
    // The same value twice, or a switch twice, says one thing.
    expect((await cli(["apply", "--init", "runit", "--init=runit", "--root", root, "--adopt", "--adopt"], dir)).code).toBe(0);
  });

  it("validates a spec and names file, line, resource and field of an error", async () => {
    const good = await specDir("tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n");
    expect((await cli(["validate"], good)).out).toMatch(/tend\.yaml: valid, 1 service, 0 timers, 0 files, 0 packages\n$/);
    const bad = await specDir("tend: v1alpha1\ntype: Service\nname: my service\nexec: /opt/web\n");
    const result = await cli(["validate"], bad);
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      `error TEND_BAD_NAME: service name \`my service\` may only hold letters, digits and \`_ . - @\`, and must not start with \`.\` or \`-\`\n  at ${join(bad, "tend.yaml")}:3, service:my service, field name\n  hint Rename the service\n`,
    );
  });

  it.runIf(process.platform !== "darwin")("refuses --init launchd on this platform's live host before running anything; plans it for an image root, validates and renders it", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n");
    for (const command of ["plan", "apply", "observe"]) {
      const live = await cli([command, "--init", "launchd"], dir);
      expect(live.code, command).toBe(1);
      expect(live.err).toBe(
        `error TEND_USAGE: --init launchd: launchd runs only on darwin, and this host is ${process.platform}\n  hint Plan or apply for it into an image root with --root DIR, or run tend on a darwin host\n`,
      );
    }
    // A LaunchDaemon belongs to root:wheel: the root's group database says who wheel is, as on macOS.
    const root = await imageRoot(dir, "root");
    await mkdir(join(root, "etc"));
    await writeFile(join(root, "etc/group"), "wheel:*:0:root\n");
    const image = await cli(["plan", "--init", "launchd", "--root", root], dir);
    expect(image.err).toBe("");
    expect(image.out).toContain("  + service:web  /opt/web\n");
    // validate and render run none of its tools: they work for launchd here, as for every init
    expect((await cli(["validate", "--init", "launchd"], dir)).code).toBe(0);
    for (const init of ["launchd", "all"]) {
      const render = await cli(["render", "--init", init], dir);
      expect(render.err, `render --init ${init}`).toBe("");
      expect(render.out).toContain("/Library/LaunchDaemons/tend.web.plist");
    }
  });

  it("fails the plan with the seed's text for a field the host's init cannot express", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\nsystemd:\n  MemoryMax: 512M\n");
    const result = await cli(["plan", "--init", "runit", "--root", await imageRoot(dir, "root")], dir);
    expect(result.code).toBe(1);
    expect(result.err).toContain("error TEND_UNSUPPORTED_FIELD: service:web sets `systemd` (MemoryMax), which only systemd supports, and this host uses runit\n");
  });

  it("plans with --detailed-exitcode and --json, and gives 0 once applied", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: File\nname: motd\npath: /etc/motd\ncontent: hello\n");
    const root = await imageRoot(dir, "root");
    const plan = await cli(["plan", "--init", "runit", "--root", root, "--detailed-exitcode"], dir);
    expect(plan.code).toBe(2);
    expect(plan.out).toMatch(/^host .* \(runit\)\n  \+ file:motd  \/etc\/motd\n  1 to add, 0 to change, 0 to remove\n$/);
    const json = JSON.parse((await cli(["plan", "--init", "runit", "--root", root, "--json"], dir)).out);
    expect(json).toMatchObject({ formatVersion: 1, command: "plan", result: { init: "runit", counts: { add: 1 }, changes: [{ key: "file:motd", action: "add", files: [{ path: "/etc/motd", change: "write", why: "new" }] }] } });
    expect((await cli(["apply", "--init", "runit", "--root", root], dir)).code).toBe(0);
    expect((await cli(["plan", "--init", "runit", "--root", root, "--detailed-exitcode"], dir)).code).toBe(0);
  });

  it("refuses an empty tend.yaml, which would remove everything (a failed write leaves one); a spec of one comment removes everything on purpose", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n");
    const root = await imageRoot(dir, "root");
    expect((await cli(["apply", "--init", "runit", "--root", root], dir)).code).toBe(0);
    const run = join(root, "etc/sv/tend-web/run");
    const file = join(dir, "tend.yaml");
    for (const text of ["", "\n  \n"]) {
      await writeFile(file, text);
      for (const command of ["validate", "plan", "apply"]) {
        const result = await cli([command, "--init", "runit", ...(command === "validate" ? [] : ["--root", root])], dir);
        expect(result.code, command).toBe(1);
        expect(result.err).toBe(
          `error TEND_SPEC: ${file} is empty: as a spec it would remove every resource tend manages here\n  at ${file}\n  hint Check what wrote it; to remove everything on purpose, make it a spec of one comment (# nothing)\n`,
        );
      }
      expect(await readFile(run, "utf8")).toContain("/opt/web");
    }
    await writeFile(file, "# nothing\n");
    const nothing = await cli(["apply", "--init", "runit", "--root", root], dir);
    expect(nothing.code).toBe(0);
    expect(nothing.out).toContain("- service:web");
    await expect(readFile(run, "utf8")).rejects.toThrow("ENOENT");
  });

  it("warns of a timer whose time a clock change skips in the host's zone, in the init's words", async () => {
    const timer = (name: string, schedule: string) => `tend: v1alpha1\ntype: Timer\nname: ${name}\nexec: /usr/local/bin/${name}\nschedule: "${schedule}"\n`;
    const dir = await specDir([timer("backup", "30 2 * * *"), timer("report", "0 4 * * *")].join("---\n"));
    const root = await imageRoot(dir, "root");
    await withCron(root);
    // no zone said: nothing to warn of
    const quiet = await cli(["plan", "--init", "runit", "--root", root], dir);
    expect(quiet.out).toContain("+ timer:backup");
    expect(quiet.out).not.toContain("warning");
    await symlink("../usr/share/zoneinfo/Europe/Berlin", join(root, "etc/localtime"));
    const skipped = /timer:backup warning: runs at 02:30, a time Europe\/Berlin skips on \d{4}-03-(2[5-9]|3[01]) \(clocks go from 02:00 to 03:00\): /;
    const cron = await cli(["plan", "--init", "runit", "--root", root], dir);
    expect(cron.code).toBe(0);
    expect(cron.out).toMatch(new RegExp(`${skipped.source}cron runs it right after the jump, at 03:00; pick a time outside 02:00–03:00 to run it at its time every day\n`));
    expect(cron.out).not.toContain("timer:report warning");
    const systemd = await cli(["plan", "--init", "systemd", "--root", root], dir);
    expect(systemd.out).toMatch(new RegExp(`${skipped.source}systemd does not run it that day;`));
    // a zone named in /etc/timezone, where /etc/localtime is not a link
    const other = join(dir, "other");
    await withCron(other);
    await writeFile(join(other, "etc/timezone"), "America/New_York\n");
    expect((await cli(["plan", "--init", "runit", "--root", other], dir)).out).toMatch(/timer:backup warning: runs at 02:30, a time America\/New_York skips on \d{4}-03-(0[89]|1[0-4]) /);
  });

  it("observes named resources and refuses unknown references", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: File\nname: motd\npath: /etc/motd\ncontent: hello\n");
    const root = await imageRoot(dir, "r");
    const result = await cli(["observe", "service:nope", "--init", "runit", "--root", root], dir);
    expect(result.err).toContain("service:nope is not declared");
    // A File is declared, but it is tend's, not the init's.
    const file = await cli(["observe", "File[motd]", "--init", "runit", "--root", root], dir);
    expect(file.code).toBe(1);
    expect(file.err).toContain("error TEND_USAGE: file:motd is a File: the init reports nothing on files; `tend plan` shows whether it matches the spec");
    const all = await cli(["observe", "--init", "runit", "--root", root], dir);
    expect([all.code, all.out]).toEqual([0, "nothing to observe: this scope of the spec declares no service, timer or package (its file is compared by tend plan)\n"]);
  });

  it("observes whether each service would run after a reboot, and why not, in text and JSON", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: Service\nname: on\nexec: /bin/sleep 1000\n---\ntend: v1alpha1\ntype: Service\nname: off\nexec: /bin/sleep 1000\ndesired: {state: running, enabled: false}\n");
    const root = await imageRoot(dir, "r");
    expect((await cli(["apply", "--init", "runit", "--root", root], dir)).code).toBe(0);
    const text = await cli(["observe", "--init", "runit", "--root", root], dir);
    expect(text.out).toContain("service:on\n  exists   yes\n  enabled  yes\n  at boot  starts\n");
    expect(text.out).toContain("  at boot  does not start: /etc/sv/tend-off/down keeps runsv from starting it at boot\n");
    const json = JSON.parse((await cli(["observe", "--json", "--init", "runit", "--root", root], dir)).out);
    expect(json.result.resources).toContainEqual(expect.objectContaining({ key: "service:off", atBoot: { starts: false, why: "/etc/sv/tend-off/down keeps runsv from starting it at boot" } }));
  });
});

describe("tend validate, with the host's providers", () => {
  it("fails a file at a path a service renders, before anything is applied", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n---\ntend: v1alpha1\ntype: File\nname: clash\npath: /etc/sv/tend-web/run\ncontent: x\n");
    const result = await cli(["validate", "--init", "runit"], dir);
    expect(result.code).toBe(1);
    expect(result.err).toContain("error TEND_DUPLICATE: file:clash would write /etc/sv/tend-web/run, as service:web does");
  });

  it("fails a file inside a file or link a service renders, before anything is applied", async () => {
    const dir = await specDir(
      "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\n---\ntend: v1alpha1\ntype: File\nname: unit\npath: /etc/systemd/system/tend-web.service/x\ncontent: x\n" +
        "---\ntend: v1alpha1\ntype: File\nname: link\npath: /etc/runit/runsvdir/default/tend-web/x\ncontent: x\n---\ntend: v1alpha1\ntype: File\nname: inside\npath: /etc/sv/tend-web/env/A\ncontent: x\n",
    );
    const systemd = await cli(["validate", "--init", "systemd"], dir);
    expect(systemd.code).toBe(1);
    expect(systemd.err).toContain("error TEND_DUPLICATE: file:unit would write /etc/systemd/system/tend-web.service/x inside /etc/systemd/system/tend-web.service, which service:web writes as a file");
    const runit = await cli(["validate", "--init", "runit"], dir);
    expect(runit.code).toBe(1);
    expect(runit.err).toContain("error TEND_DUPLICATE: file:link would write /etc/runit/runsvdir/default/tend-web/x inside /etc/runit/runsvdir/default/tend-web, which service:web writes as a link");
    // A file inside a folder the service renders is the admin's to add.
    expect(runit.err.match(/error /g)).toHaveLength(1);
  });

  it("fails what the named init cannot express, as plan would, at the resource's line; render names the line too", async () => {
    const dir = await specDir(
      "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\nuser: true\nenv:\n  command: x\nafter: [graphical.target]\n---\n" +
        "tend: v1alpha1\ntype: Service\nname: db\nexec: /opt/db\nenv:\n  pidfile: /run/x\n",
    );
    const file = join(dir, "tend.yaml");
    const openrc = await cli(["validate", "--init", "openrc"], dir);
    expect(openrc.code).toBe(1);
    expect(openrc.out).toBe("");
    // This run's own service, and the user service its user's run would carry: both refused.
    expect(openrc.err).toContain(`error TEND_INVALID_FIELD: service:db has an invalid \`env\`: \`pidfile\` is a variable openrc-run reads`);
    expect(openrc.err).toContain(`at ${file}:15, service:db, field env, provider openrc\n`);
    expect(openrc.err).toContain(`service:web sets user = True, but OpenRC has no user services\n  at ${file}:5, service:web, field user, provider openrc\n`);
    expect(openrc.err).toContain(`after \`graphical.target\`, a systemd target, and this host uses OpenRC\n  at ${file}:8, service:web, field after, provider openrc\n`);
    expect(openrc.err).toContain(`at ${file}:7, service:web, field env, provider openrc\n`);
    const json = await cli(["validate", "--init", "openrc", "--json"], dir);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.out) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code).sort()).toEqual(["TEND_INVALID_FIELD", "TEND_INVALID_FIELD", "TEND_NO_USER_SERVICES", "TEND_TARGET_AFTER"]);
    // The same spec is valid where the init can express it.
    const systemd = await cli(["validate", "--init", "systemd"], dir);
    expect(systemd.err).toBe("");
    expect(systemd.out).toBe(`${file}: valid, 2 services, 0 timers, 0 files, 0 packages\n`);
    const render = await cli(["render", "--init", "openrc"], dir);
    expect(render.code).toBe(1);
    expect(render.err).toContain(`service:web sets user = True, but OpenRC has no user services\n  at ${file}:5, service:web, field user, provider openrc\n`);
    expect(render.err).toContain(`at ${file}:15, service:db, field env, provider openrc\n`);
  });

  it("names the line of a resource the init cannot express, or whose rendered path clashes, as validation does", async () => {
    const dir = await specDir(
      "tend: v1alpha1\ntype: Service\nname: web\nexec: /opt/web\nuser: true\n# a comment\nafter:\n  - network\n  - graphical.target\n---\n" +
        "tend: v1alpha1\ntype: Service\nname: db\nexec: /opt/db\n---\n\ntend: v1alpha1\ntype: File\nname: clash\npath: /etc/sv/tend-db/run\ncontent: x\n",
    );
    const file = join(dir, "tend.yaml");
    // Twice: the second run's spec comes from the cache, never parsed, and still gets its lines.
    for (let run = 0; run < 2; run += 1) {
      const openrc = await cli(["plan", "--init", "openrc", "--root", await imageRoot(dir, `openrc-${run}`)], dir);
      expect(openrc.err).toContain(`service:web sets user = True, but OpenRC has no user services\n  at ${file}:5, service:web, field user, provider openrc\n`);
      expect(openrc.err).toContain(`after \`graphical.target\`, a systemd target, and this host uses OpenRC\n  at ${file}:8, service:web, field after, provider openrc\n`);
      const runit = await cli(["plan", "--init", "runit", "--root", await imageRoot(dir, `runit-${run}`)], dir);
      expect(runit.err).toContain(`file:clash would write /etc/sv/tend-db/run, as service:db does\n  at ${file}:17, file:clash\n`);
    }
  });
});

describe("a run in one scope, with resources of the other", () => {
  const SPEC = "tend: v1alpha1\ntype: Service\nname: sys\nexec: /opt/sys\n---\ntend: v1alpha1\ntype: Service\nname: mine\nexec: /opt/mine\nuser: true\n";

  it("fails the plan for what the init can never express, whatever the scope (OpenRC has no user services)", async () => {
    const dir = await specDir(SPEC);
    const result = await cli(["plan", "--init", "openrc", "--root", await imageRoot(dir, "r")], dir);
    expect(result.code).toBe(1);
    expect(result.err).toContain("error TEND_NO_USER_SERVICES: service:mine sets user = True, but OpenRC has no user services");
  });

  it("says how many resources of the other scope it left out, and the command that applies them", async () => {
    const dir = await specDir(SPEC);
    const result = await cli(["plan", "--init", "runit", "--root", await imageRoot(dir, "r")], dir);
    expect(result.code).toBe(0);
    expect(result.out).toContain("(1 user-scope resource is not in this run: tend apply --user");
  });

  it("leaves a File a user service names to the user's run: the system run neither writes nor claims it, so the two runs never meet at its path", async () => {
    const userSpec = (content: string, path = "/root/app.conf") =>
      `tend: v1alpha1\ntype: File\nname: conf\npath: ${path}\ncontent: ${JSON.stringify(content)}\n---\ntend: v1alpha1\ntype: Service\nname: app\nexec: /opt/app\nuser: true\nrestartOn:\n  - File[conf]\n`;
    const dir = await specDir(userSpec("one\n"));
    const root = await imageRoot(dir, "r");
    await mkdir(join(root, "etc"));
    await writeFile(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
    const system = ["apply", "--init", "systemd", "--root", root];
    const first = await cli(system, dir);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain("(2 user-scope resources are not in this run: tend apply --user");
    expect(await readdir(root)).not.toContain("root");
    // Before, the system run wrote it, and the user's run refused a file it had not written.
    const user = await cli([...system, "--user"], dir);
    expect(user.code, user.err).toBe(0);
    expect(await readFile(join(root, "root/app.conf"), "utf8")).toBe("one\n");
    await writeFile(join(dir, "tend.yaml"), userSpec("two\n"));
    expect((await cli([...system, "--user"], dir)).out).toContain("file:conf: changed");
    expect(await readFile(join(root, "root/app.conf"), "utf8")).toBe("two\n");
    const again = await cli(["plan", ...system.slice(1), "--detailed-exitcode"], dir);
    expect([again.code, again.err]).toEqual([0, ""]);
    // A user's run writes only in the home: outside every home, both runs refuse it.
    await writeFile(join(dir, "tend.yaml"), userSpec("x\n", "/etc/app.conf"));
    for (const args of [system, [...system, "--user"]]) {
      const refused = await cli(args, dir);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/^error TEND_INVALID_FIELD: file:conf has an invalid `path`: \/etc\/app.conf is (in no user's home|outside \/root, the home of root)/);
    }
    expect(await readdir(join(root, "etc"))).toEqual(["passwd"]);
  });

  it("says, when a user's run meets a File root's run wrote in the home, how to make it the user's alone", async () => {
    const dir = await specDir("tend: v1alpha1\ntype: File\nname: dot\npath: /root/.dot\ncontent: x\n---\ntend: v1alpha1\ntype: Service\nname: app\nexec: /opt/app\nuser: true\n");
    const root = await imageRoot(dir, "r");
    await mkdir(join(root, "etc"));
    await writeFile(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
    const system = ["apply", "--init", "systemd", "--root", root];
    expect((await cli(system, dir)).code).toBe(0);
    const user = await cli([...system, "--user"], dir);
    expect(user.code).toBe(1);
    expect(user.err).toContain("error TEND_UNMANAGED_FILE: file:dot would write /root/.dot, which tend did not write\n");
    expect(user.err).toContain("hint If root's tend apply of this spec wrote it (a system run writes every File but those a user service or timer names), name it in a user service's requires");
  });
});
