import { startHost, TEND_IN_HOST, type TestHost } from "@tend/testkit/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provePurePlans } from "../support/side-effects.js";
import { commandsOfRun } from "../support/commands-of-run.js";
import { doc, NOTHING, spec } from "../support/spec-documents.js";
import { proveCrontabWalk } from "../support/crontab-walk.js";
import { WALK, WALK_TIMEOUT_MS } from "../support/random-walk.js";

/**
 * Timers on a runit host (runsvdir as PID 1) with Debian's cron: the core picks the cron provider
 * for them, cron really runs what tend writes, and a user's crontab keeps every byte of its own.
 */

const SYSTEM_SPEC = "/spec/system.yaml";
const USER_SPEC = "/spec/alice.yaml";
const EMPTY_SPEC = "/spec/empty.yaml";

/**
 * Runs once a minute as root; the env value and the command both hold `%` and quotes, and the
 * command a double backslash, so it reaches the shell on stdin (see escapeCronCommand).
 */
const TICK = `tend: v1alpha1
type: Timer
name: tick
exec: printf '%s|%s|%s\\n' "$GREETING" "$(id -un)" 'a\\\\b' > /var/tmp/tend-tick
schedule: "* * * * *"
env:
  GREETING: "it's 100% \\"done\\""
  TICK_TOKEN: "s3cr3t-tick"
`;
const TICK_MARKER = `it's 100% "done"|root|a\\\\b\n`;

const ping = (schedule: string) => `tend: v1alpha1
type: Timer
name: ping
user: true
exec: printf '%s|%s\\n' "$WHO" "$(id -un)" > "$HOME/tend-ping"
schedule: "${schedule}"
env:
  WHO: "alice's 50%"
`;
const PING_MARKER = "alice's 50%|alice\n";

/** alice's own crontab: a variable, comments, a job of hers, and a last line without a newline. */
const ALICE_OWN = 'MAILTO=""\n# alice\'s own jobs, not tend\'s\nSHELL=/bin/sh\n*/30 * * * * echo own-job >/dev/null\n# the end, no newline';

describe("cron timers on a runit host", () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startHost("cron");
    await host.waitFor(async () => (await host.sh("pgrep -x cron")).exitCode === 0, { timeoutMs: 30_000, what: "cron to run" });
    await host.writeFile(SYSTEM_SPEC, TICK);
    await host.writeFile(USER_SPEC, ping("* * * * *"));
    await host.writeFile(EMPTY_SPEC, NOTHING);
    await host.writeFile("/tmp/alice.crontab", ALICE_OWN);
    await host.mustExec(["crontab", "-u", "alice", "/tmp/alice.crontab"]);
  });

  afterAll(async () => {
    await host?.stop();
  });

  const aliceCrontab = () => host.mustExec(["crontab", "-u", "alice", "-l"]);
  const pingBlock = (schedule: string) =>
    `# BEGIN tend:ping\n${schedule} export WHO='alice'\\''s 50\\%'; printf '\\%s|\\%s\\n' "$WHO" "$(id -un)" > "$HOME/tend-ping"\n# END tend:ping\n`;
  const withBlock = (block: string) => ALICE_OWN.replace("# the end, no newline", `${block}# the end, no newline`);

  it("serves timers with the cron provider on this host", async () => {
    const output = await host.expectTend(["providers", "-f", SYSTEM_SPEC]);
    expect(output).toMatch(/^\* @tend\/provider-cron@\S+\s+timer on any init without them/m);
    expect(output).toMatch(/^\* @tend\/provider-runit@\S+\s+service on runit/m);
    expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).toContain("host cron-host (runit)");
  });

  it("runs a system timer and a user timer, keeping alice's own lines", async () => {
    expect(await host.expectTend(["apply", "-f", SYSTEM_SPEC])).toContain("timer:tick");
    // Its env holds a token: root's to read alone, which Debian's cron accepts (it runs the job below).
    expect(await host.mustExec(["stat", "-c", "%a %U %G", "/etc/cron.d/tend-tick"])).toBe("600 root root\n");
    const file = await host.readFile("/etc/cron.d/tend-tick");
    expect(file.startsWith("# Managed by tend. Edits are overwritten on the next apply.\n")).toBe(true);
    expect(file.endsWith("\n")).toBe(true);

    expect(await host.expectTend(["apply", "-f", USER_SPEC, "--user", "alice"])).toContain("timer:ping");
    expect(await aliceCrontab()).toBe(withBlock(pingBlock("* * * * *")));

    // alice adds a job of her own after tend's block (as `crontab -e` would): the block's env must not reach it
    const afterBlock = withBlock(pingBlock("* * * * *")).replace("# the end", `* * * * * printf '[\\%s]' "$WHO" > "$HOME/after-block"\n# the end`);
    await host.writeFile("/tmp/alice.crontab", afterBlock);
    await host.mustExec(["crontab", "-u", "alice", "/tmp/alice.crontab"]);
    await host.expectTend(["plan", "-f", USER_SPEC, "--user", "alice", "--detailed-exitcode"], { exitCode: 0 });

    const marker = (path: string) => host.exec(["cat", path]).then((r) => (r.exitCode === 0 ? r.stdout : ""));
    await host.waitFor(async () => (await marker("/var/tmp/tend-tick")) === TICK_MARKER, { timeoutMs: 130_000, what: "cron to run timer:tick" });
    await host.waitFor(async () => (await marker("/home/alice/tend-ping")) === PING_MARKER, { timeoutMs: 130_000, what: "cron to run alice's timer:ping" });
    await host.waitFor(async () => (await marker("/home/alice/after-block")) === "[]", { timeoutMs: 130_000, what: "cron to run alice's own job after the block" });
    await host.writeFile("/tmp/alice.crontab", withBlock(pingBlock("* * * * *")));
    await host.mustExec(["crontab", "-u", "alice", "/tmp/alice.crontab"]);
  });

  it("reads alice's crontab the same without -u when alice runs tend herself", async () => {
    const result = await host.tend(["plan", "-f", USER_SPEC, "--user", "--detailed-exitcode"], { user: "alice" });
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
  });

  it("keeps alice's lines through a change and the removal", async () => {
    await host.writeFile(USER_SPEC, ping("*/7 * * * *"));
    expect(await host.expectTend(["plan", "-f", USER_SPEC, "--user", "alice", "--detailed-exitcode"], { exitCode: 2 })).toContain("timer:ping");
    await host.expectTend(["apply", "-f", USER_SPEC, "--user", "alice"]);
    expect(await aliceCrontab()).toBe(withBlock(pingBlock("*/7 * * * *")));

    await host.expectTend(["apply", "-f", EMPTY_SPEC, "--user", "alice"]);
    expect(await aliceCrontab()).toBe(ALICE_OWN);
  });

  it("detects an edited cron.d file and restores it", async () => {
    const rendered = await host.readFile("/etc/cron.d/tend-tick");
    await host.mustSh("sed -i 's/^\\* \\* \\* \\* \\*/*\\/2 * * * */' /etc/cron.d/tend-tick");
    expect(await host.readFile("/etc/cron.d/tend-tick")).not.toBe(rendered);
    expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"], { exitCode: 2 })).toContain("timer:tick drifted: /etc/cron.d/tend-tick was edited");
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await host.readFile("/etc/cron.d/tend-tick")).toBe(rendered);
    expect(await host.mustExec(["stat", "-c", "%a %U", "/etc/cron.d/tend-tick"])).toBe("600 root\n");
    await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"], { exitCode: 0 });
  });

  it("detects an edited block and restores only the block", async () => {
    await host.writeFile(USER_SPEC, ping("* * * * *"));
    await host.expectTend(["apply", "-f", USER_SPEC, "--user", "alice"]);
    const edited = withBlock(pingBlock("* * * * *").replace("* * * * * export", "0 * * * * export"));
    await host.writeFile("/tmp/alice.crontab", edited);
    await host.mustExec(["crontab", "-u", "alice", "/tmp/alice.crontab"]);
    expect(await host.expectTend(["plan", "-f", USER_SPEC, "--user", "alice", "--detailed-exitcode"], { exitCode: 2 })).toContain("timer:ping drifted: crontab alice: tend:ping was edited");
    await host.expectTend(["apply", "-f", USER_SPEC, "--user", "alice"]);
    expect(await aliceCrontab()).toBe(withBlock(pingBlock("* * * * *")));
  });

  it("refuses damaged markers, saying where, and leaves the crontab alone", async () => {
    const damaged = withBlock(pingBlock("* * * * *")).replace("# END tend:ping\n", "");
    await host.writeFile("/tmp/alice.crontab", damaged);
    await host.mustExec(["crontab", "-u", "alice", "/tmp/alice.crontab"]);
    const output = await host.expectTend(["apply", "-f", USER_SPEC, "--user", "alice"], { exitCode: 1 });
    expect(output).toContain("the crontab of alice has damaged tend markers: line 5, `# BEGIN tend:ping`, has no `# END tend:ping` after it");
    expect(await aliceCrontab()).toBe(damaged);
  });

  it("refuses a crontab whose own lines are not UTF-8 (Latin-1), leaving every byte of it as it was", async () => {
    await host.mustSh("printf '# caf\\351 au lait\\n0 1 * * * echo \\351t\\351 >/dev/null\\n' | crontab -u alice -");
    const bytes = () => host.mustSh("crontab -u alice -l | od -An -tx1");
    const before = await bytes();
    expect(before).toContain(" e9");
    const output = await host.expectTend(["apply", "-f", USER_SPEC, "--user", "alice"], { exitCode: 1 });
    expect(output).toContain("TEND_CRONTAB_NOT_UTF8: the crontab of alice holds bytes that are not UTF-8 on line 1 (saved as Latin-1?)");
    expect(await bytes()).toBe(before);
    await host.writeFile("/tmp/alice.crontab", ALICE_OWN);
    await host.mustExec(["crontab", "-u", "alice", "/tmp/alice.crontab"]);
  });

  it("removes the system timer's file and nothing else", async () => {
    await host.mustSh("test -f /etc/cron.d/e2scrub_all || touch /etc/cron.d/keep-me");
    const before = (await host.mustExec(["ls", "/etc/cron.d"])).split("\n").filter((name) => name && name !== "tend-tick");
    await host.expectTend(["apply", "-f", EMPTY_SPEC]);
    expect((await host.mustExec(["ls", "/etc/cron.d"])).split("\n").filter(Boolean)).toEqual(before);
  });

  it("leaves nothing in /var/lib/tend but the lock, the state and the edited cron.d file it replaced", async () => {
    expect(await host.mustSh("ls -A /var/lib/tend")).toBe("backups\nlock\nstate.json\n");
    const kept = (await host.mustSh("cd /var/lib/tend/backups && find . -type f")).split("\n").filter(Boolean);
    expect(kept).toEqual([expect.stringMatching(/^\.\/[^/]+\/file\/etc\/cron\.d\/tend-tick$/)]);
    expect(await host.readFile(`/var/lib/tend/backups/${kept[0]!.slice(2)}`)).toMatch(/^\*\/2 \* \* \* \* root /m);
  });

  it("fails plan for a name cron would ignore, with the seed's text", async () => {
    await host.writeFile("/spec/dotted.yaml", TICK.replace("name: tick", "name: backup.daily"));
    expect(await host.expectTend(["plan", "-f", "/spec/dotted.yaml"], { exitCode: 1 })).toContain(
      "timer name `backup.daily` holds a `.`, which cron ignores in /etc/cron.d file names",
    );
  });

  // The host's clock cannot be set here: cron runs under libfaketime, from just before the day's
  // jump, twenty times as fast. A 02:30 that never happens runs only through cron's own handling.
  it("warns of a time summer time skips, and cron runs it right after the jump, as the warning says", async () => {
    const spec = "/spec/dst.yaml";
    await host.writeFile(spec, 'tend: v1alpha1\ntype: Timer\nname: dst\nexec: echo ran >> /var/tmp/tend-dst\nschedule: "30 2 * * *"\n');
    const zone = (await host.mustExec(["readlink", "/etc/localtime"])).trim();
    await host.mustExec(["ln", "-sfn", "/usr/share/zoneinfo/Europe/Berlin", "/etc/localtime"]);
    let faked = "";
    try {
      const plan = await host.expectTend(["plan", "-f", spec]);
      const warned = /timer:dst warning: runs at 02:30, a time Europe\/Berlin skips on (\d{4}-\d\d-\d\d) \(clocks go from 02:00 to 03:00\): cron runs it right after the jump, at 03:00;/.exec(plan);
      expect(warned, plan).not.toBeNull();
      await host.expectTend(["apply", "-f", spec]);
      await host.mustExec(["sv", "-w", "10", "stop", "cron"]);
      // libfaketime preloaded into cron itself (faketime(1) would fork it), so $! is cron's pid
      const lib = "$(dpkg -L libfaketime | grep '/libfaketime[.]so[.]1$')";
      faked = (await host.mustSh(`LD_PRELOAD=${lib} FAKETIME='@${warned![1]} 01:58:30 x20' cron -f >/dev/null 2>&1 & echo $!`)).trim();
      await host.waitFor(async () => (await host.exec(["test", "-s", "/var/tmp/tend-dst"])).exitCode === 0, { timeoutMs: 30_000, what: "cron to run the 02:30 job after the jump" });
      expect(await host.readFile("/var/tmp/tend-dst")).toBe("ran\n");
    } finally {
      // cron holds its pid file's lock until it is gone: the supervised one starts after that
      if (faked) await host.mustSh(`kill ${faked}; while kill -0 ${faked} 2>/dev/null; do sleep 0.1; done`);
      await host.mustExec(["ln", "-sfn", zone, "/etc/localtime"]);
      await host.mustExec(["sv", "-w", "10", "start", "cron"]);
      await host.expectTend(["apply", "-f", EMPTY_SPEC]);
    }
  });

  it("warns while cron runs in the time zone it started with, after the zone changed, until cron restarts", async () => {
    const warning = /timer:tick warning: cron \(pid (\d+)\) started before the time zone changed \([^)]+\): it fires timers in the zone it started with until it is restarted/;
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).not.toMatch(warning);
    const zone = (await host.mustExec(["readlink", "/etc/localtime"])).trim();
    try {
      // Past the whole seconds that boot time and the link's time are kept in.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await host.mustExec(["ln", "-sfn", "/usr/share/zoneinfo/Asia/Tokyo", "/etc/localtime"]);
      const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC]);
      expect(plan, plan).toMatch(warning);
      expect(warning.exec(plan)![1]).toBe((await host.mustExec(["cat", "/run/crond.pid"])).trim());
      await host.mustExec(["sv", "-w", "10", "restart", "cron"]);
      await host.waitFor(async () => (await host.exec(["sh", "-c", "kill -0 $(cat /run/crond.pid)"])).exitCode === 0, { timeoutMs: 30_000, what: "cron to run again" });
      expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).not.toMatch(warning);
    } finally {
      await host.mustExec(["ln", "-sfn", zone, "/etc/localtime"]);
      await host.mustExec(["sv", "-w", "10", "restart", "cron"]);
      await host.expectTend(["apply", "-f", EMPTY_SPEC]);
    }
  });

  it("warns at each timer while no cron daemon runs, and no more once cron runs again", async () => {
    const warning = "timer:tick warning: no cron daemon is running here: the timer is in place, but nothing runs it until cron does";
    // Right after a restart (the test before ends with one) cron can be down for a second: a cron
    // that starts while the old one still holds its pid file's lock exits, and runsv waits a
    // second before it starts it again. The warning says so then, rightly.
    const cronRuns = async () => (await host.exec(["sh", "-c", '[ "$(cat /run/crond.pid)" = "$(pgrep -x cron)" ]'])).exitCode === 0;
    await host.waitFor(cronRuns, { timeoutMs: 30_000, what: "cron to run" });
    await host.expectTend(["apply", "-f", SYSTEM_SPEC]);
    expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).not.toContain(warning);
    try {
      await host.mustExec(["sv", "-w", "10", "down", "cron"]);
      await host.waitFor(async () => (await host.exec(["pgrep", "-x", "cron"])).exitCode === 1, { timeoutMs: 30_000, what: "cron to end" });
      const plan = await host.expectTend(["plan", "-f", SYSTEM_SPEC, "--detailed-exitcode"]);
      expect(plan, plan).toContain(warning);
      // A warning, not a change: the timer itself is in place.
      expect(plan).toContain("0 to add, 0 to change, 0 to remove");
      await host.mustExec(["sv", "-w", "10", "up", "cron"]);
      await host.waitFor(cronRuns, { timeoutMs: 30_000, what: "cron to run again" });
      expect(await host.expectTend(["plan", "-f", SYSTEM_SPEC])).not.toContain(warning);
    } finally {
      await host.mustExec(["sv", "-w", "10", "up", "cron"]);
      await host.expectTend(["apply", "-f", EMPTY_SPEC]);
    }
  });

  describe("read-only commands change nothing (G2)", () => {
    const conf = (content: string) => `tend: v1alpha1\ntype: File\nname: pure-conf\npath: /etc/pure/pure.conf\ncontent: "${content}\\n"\n`;
    const tick = (schedule: string) => TICK.replace("name: tick", "name: pure-tick").replace('"* * * * *"', `"${schedule}"`);

    it("root's timers: plan, plan --diff and observe start no program and change no file, converged or not; the same spy sees all that apply does", async () => {
      const changedText = [conf("a = 2"), tick("*/5 * * * *")].join("---\n");
      const applied = await provePurePlans(host, { spec: "/spec/pure.yaml", docs: [conf("a = 1"), tick("* * * * *")], changed: "/spec/pure-changed.yaml", changedText });
      expect(applied.changes.filter((call) => call.includes('"/etc/pure/')).length).toBeGreaterThan(0);
      expect(applied.changes.filter((call) => call.includes('"/etc/cron.d/tend-pure-tick')).length).toBeGreaterThan(0);
      await host.expectTend(["apply", "-f", EMPTY_SPEC]);
    });

    it("alice's timers: plan, plan --diff and observe run only `crontab -u alice -l` and change no file; the same spy sees apply install her crontab", async () => {
      // the earlier test left damaged markers in her crontab: her own lines only
      await host.writeFile("/tmp/alice.crontab", ALICE_OWN);
      await host.mustExec(["crontab", "-u", "alice", "/tmp/alice.crontab"]);
      const queries = /^crontab -u alice -l$/;
      const applied = await provePurePlans(host, { spec: "/spec/pure-alice.yaml", docs: [ping("* * * * *")], changed: "/spec/pure-alice-changed.yaml", changedText: ping("*/5 * * * *"), queries, flags: ["--user", "alice"] });
      expect(applied.commands.map((argv) => argv.join(" ")).filter((line) => line.startsWith("crontab ") && !queries.test(line))).toEqual(["crontab -u alice -"]);
      expect(applied.changes.filter((call) => call.includes("/var/spool/cron/crontabs/")).length).toBeGreaterThan(0);
      expect(await aliceCrontab()).toBe(withBlock(pingBlock("*/5 * * * *")));
      await host.expectTend(["apply", "-f", EMPTY_SPEC, "--user", "alice"]);
      expect(await aliceCrontab()).toBe(ALICE_OWN);
    });
  });

  describe("batching: the same commands for 3 timers as for 60", () => {
    const many = (n: number, user: boolean, hour: number) =>
      Array.from({ length: n }, (_, i) => doc(`type: Timer\nname: b${i}\n${user ? "user: true\n" : ""}exec: /bin/true b${i}\nschedule: "0 ${hour} * * *"`));
    /**
     * The commands an apply of `docs` starts, for alice's crontab when `user`; each of the wave's
     * names shown as "…". Left out: `sync --file-system`, which replaces the fsync of each file once
     * a batch has many (one per file system, not per timer).
     */
    const commands = async (docs: string[], user: boolean) => {
      await host.writeFile("/spec/batch.yaml", spec(...docs));
      const args = ["apply", "-f", "/spec/batch.yaml", ...(user ? ["--user", "alice"] : [])];
      return (await commandsOfRun(host, args, /^tend-b\d+$/)).filter((command) => !command.startsWith("sync "));
    };

    it.each([
      ["system timers (files in /etc/cron.d)", false],
      ["alice's timers (blocks in her crontab)", true],
    ] as const)("%s: adding, changing and removing 3 or 60 start the same commands", async (_, user) => {
      const runs = async (n: number) => ({ add: await commands(many(n, user, 3), user), change: await commands(many(n, user, 4), user), remove: await commands([], user) });
      const three = await runs(3);
      expect(await runs(60)).toEqual(three);
      if (!user) {
        // System timers are files cron reads itself: the lock's flock alone.
        expect(three).toEqual({ add: ["flock -n 3"], change: ["flock -n 3"], remove: ["flock -n 3"] });
        return;
      }
      // alice's: her lock taken as her; her crontab read (observe, inspect, and again just before
      // the write) and written once; her state written as her, by one child running as alice for
      // all of the apply's writes.
      const tally = (commands: string[]) => Object.fromEntries([...new Set(commands)].map((command) => [command.replace(/^sh -c umask.*/, "lock"), commands.filter((c) => c === command).length]));
      const writer = `node ${TEND_IN_HOST}/packages/core/dist/files/user-writer-main.js`;
      expect(tally(three.add)).toEqual({ lock: 1, "crontab -u alice -l": 3, "crontab -u alice -": 1, [writer]: 1 });
      expect(tally(three.change)).toEqual({ lock: 1, "crontab -u alice -l": 3, "crontab -u alice -": 1, [writer]: 1 });
      expect(tally(three.remove)).toEqual({ lock: 1, "crontab -u alice -l": 2, "crontab -u alice -": 1, [writer]: 1 });
    });
  });

  it("a seeded random walk of edits of alice's crontab, by the spec and by alice: every byte of hers stays, and her timers' blocks are exactly the spec's", () =>
    proveCrontabWalk(host, "/spec/crontab-walk.yaml", "alice", WALK.seed, WALK.steps), WALK_TIMEOUT_MS);
});
