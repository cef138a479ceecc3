import { readFileSync } from "node:fs";
import { TendError, type Artifact } from "@tend/core";
import { applyContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { FakeCrontab } from "./__fixtures__/fake-crontab.js";
import { PROGRAMS, writePrograms } from "./__fixtures__/write-programs.js";
import { CrontabBlockStore } from "./crontab-block-store.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const block = (name: string, job: string) => `# BEGIN tend:${name}\n${job}\n# END tend:${name}\n`;
const artifact = (name: string, user = "alice"): Artifact => ({ store: "crontab-block", path: `crontab ${user}: tend:${name}`, content: "" });

async function setup(options: { asRoot?: boolean; invokingUser?: string; offline?: boolean; crontabInstalled?: boolean } = {}) {
  const fake = new FakeCrontab(options.invokingUser);
  const ctx = await applyContext({ init: "runit", scope: "user", runner: fake.runner, offline: options.offline ?? false });
  if (options.crontabInstalled ?? true) await writePrograms(ctx.rootDir, { "/usr/bin/crontab": PROGRAMS.crontab });
  const store = new CrontabBlockStore({ asRoot: options.asRoot ?? true });
  return { fake, ctx, store };
}

async function failure(promise: Promise<unknown>): Promise<TendError> {
  try {
    await promise;
  } catch (error) {
    if (TendError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("did not fail");
}

describe("CrontabBlockStore", () => {
  it("reads every key of a user with one `crontab -u USER -l`", async () => {
    const { fake, ctx, store } = await setup();
    fake.crontabs.set("alice", fixture("crontab-l-alice.stdout"));
    const found = await store.read(["crontab alice: tend:backup", "crontab alice: tend:gone"], ctx);
    expect(found).toEqual(
      new Map([
        ["crontab alice: tend:backup", "# BEGIN tend:backup\n30 2 * * * restic backup ~/Documents\n# END tend:backup\n"],
        ["crontab alice: tend:gone", null],
      ]),
    );
    expect(fake.runner.lines).toEqual(["crontab -u alice -l"]);
    expect(fake.runner.calls[0]?.env).toEqual({ LC_ALL: "C" });
  });

  it("takes `no crontab for` as an empty crontab and installs the block through `crontab -u USER -`", async () => {
    const { fake, ctx, store } = await setup();
    const key = "crontab alice: tend:backup";
    expect(await store.read([key], ctx)).toEqual(new Map([[key, null]]));
    const content = block("backup", "30 2 * * * restic backup ~/Documents");
    await store.write([{ artifact: { ...artifact("backup"), content }, content, expected: null }], ctx);
    expect(fake.runner.lines).toEqual(["crontab -u alice -l", "crontab -u alice -l", "crontab -u alice -"]);
    expect(fake.installs).toEqual([{ user: "alice", text: content }]);
  });

  it("refuses any other failure of `crontab -l`, installing nothing", async () => {
    const { fake, ctx, store } = await setup();
    fake.listFailure = { exitCode: 1, stderr: fixture("crontab-l-unknown-user.stderr") };
    const error = await failure(store.read(["crontab alice: tend:backup"], ctx));
    expect(error.code).toBe("TEND_CRONTAB_UNREADABLE");
    expect(error.message).toBe("could not read the crontab of alice: `crontab -u alice -l` exited 1: crontab:  user `nosuchuser' unknown");
    fake.listFailure = { exitCode: 1, stderr: fixture("crontab-l-not-privileged.stderr") };
    expect((await failure(store.write([{ artifact: artifact("a"), content: block("a", "* * * * * x"), expected: null }], ctx))).message).toContain(
      "must be privileged to use -u",
    );
    fake.listFailure = { exitCode: 127, stderr: "crontab: not found\n" };
    expect((await failure(store.read(["crontab alice: tend:backup"], ctx))).message).toContain("`crontab -u alice -l` exited 127");
    expect(fake.installs).toEqual([]);
  });

  it("reads no crontab where `crontab` is not installed, leaving the refusal to the host check", async () => {
    const { fake, ctx, store } = await setup({ crontabInstalled: false });
    fake.listFailure = { exitCode: 127, stderr: "chroot: failed to run command 'crontab': No such file or directory\n" };
    expect(await store.read(["crontab alice: tend:backup"], ctx)).toEqual(new Map([["crontab alice: tend:backup", null]]));
    expect(fake.installs).toEqual([]);
  });

  it("keeps every line outside the blocks through add, change and removal", async () => {
    const { fake, ctx, store } = await setup();
    const mine = "MAILTO=alice@example.org\n# my own jobs\n*/5 * * * * /home/alice/bin/poll\n";
    fake.crontabs.set("alice", mine);
    const first = block("backup", "30 2 * * * restic backup ~/Documents");
    await store.read(["crontab alice: tend:backup"], ctx);
    await store.write([{ artifact: artifact("backup"), content: first, expected: null }], ctx);
    expect(fake.crontabs.get("alice")).toBe(mine + first);

    const second = block("backup", "45 3 * * * restic backup ~/Documents");
    await store.read(["crontab alice: tend:backup"], ctx);
    await store.write([{ artifact: artifact("backup"), content: second, expected: first }], ctx);
    expect(fake.crontabs.get("alice")).toBe(mine + second);

    await store.read(["crontab alice: tend:backup"], ctx);
    await store.write([{ artifact: artifact("backup"), content: null, expected: second }], ctx);
    expect(fake.crontabs.get("alice")).toBe(mine);
  });

  it("writes several blocks of one user with one install", async () => {
    const { fake, ctx, store } = await setup();
    fake.crontabs.set("alice", fixture("crontab-l-alice.stdout"));
    await store.read(["crontab alice: tend:backup", "crontab alice: tend:notes"], ctx);
    fake.runner.clear();
    await store.write(
      [
        { artifact: artifact("backup"), content: null, expected: block("backup", "30 2 * * * restic backup ~/Documents") },
        { artifact: artifact("notes"), content: block("notes", "@hourly notes-sync"), expected: null },
      ],
      ctx,
    );
    expect(fake.runner.lines).toEqual(["crontab -u alice -l", "crontab -u alice -"]);
    await expect(fake.crontabs.get("alice")).toMatchFileSnapshot("./__golden__/store-remove-and-add");
  });

  it("accepts its own install when the core writes two resources one after the other", async () => {
    const { fake, ctx, store } = await setup();
    fake.crontabs.set("alice", "# mine\n");
    await store.read(["crontab alice: tend:a", "crontab alice: tend:b"], ctx);
    await store.write([{ artifact: artifact("a"), content: block("a", "* * * * * x"), expected: null }], ctx);
    await store.write([{ artifact: artifact("b"), content: block("b", "* * * * * y"), expected: null }], ctx);
    expect(fake.crontabs.get("alice")).toBe(`# mine\n${block("a", "* * * * * x")}${block("b", "* * * * * y")}`);
    expect(fake.installs).toHaveLength(2);
  });

  it("keeps each host's crontab apart: two fleet hosts with a user of the same name, planned side by side", async () => {
    const store = new CrontabBlockStore({ asRoot: true });
    const hosts = await Promise.all(
      ["# web's own\n", "# db's own\n"].map(async (text) => {
        const fake = new FakeCrontab();
        const ctx = await applyContext({ init: "runit", scope: "user", runner: fake.runner });
        await writePrograms(ctx.rootDir, { "/usr/bin/crontab": PROGRAMS.crontab });
        fake.crontabs.set("alice", text);
        return { fake, ctx };
      }),
    );
    for (const { ctx } of hosts) await store.read(["crontab alice: tend:backup"], ctx);
    for (const { ctx } of hosts) await store.write([{ artifact: artifact("backup"), content: block("backup", "* * * * * x"), expected: null }], ctx);
    expect(hosts.map(({ fake }) => fake.crontabs.get("alice"))).toEqual([`# web's own\n${block("backup", "* * * * * x")}`, `# db's own\n${block("backup", "* * * * * x")}`]);
  });

  it("stops when the crontab changed after the plan read it (a `crontab -e` in between)", async () => {
    const { fake, ctx, store } = await setup();
    fake.crontabs.set("alice", "# mine\n");
    fake.beforeList = (user, count) => {
      if (count === 1) fake.crontabs.set(user, "# mine\n0 1 * * * new-job-added-meanwhile\n");
    };
    await store.read(["crontab alice: tend:backup"], ctx);
    const error = await failure(store.write([{ artifact: artifact("backup"), content: block("backup", "* * * * * x"), expected: null }], ctx));
    expect(error.code).toBe("TEND_CRONTAB_CHANGED");
    expect(error.message).toBe("the crontab of alice changed since the plan was made (its lines differ from those read for the plan); nothing was written");
    expect(fake.installs).toEqual([]);
    expect(fake.crontabs.get("alice")).toBe("# mine\n0 1 * * * new-job-added-meanwhile\n");
  });

  it("stops when a block is not what the plan expected", async () => {
    const { fake, ctx, store } = await setup();
    fake.crontabs.set("alice", block("backup", "* * * * * edited"));
    const error = await failure(
      store.write([{ artifact: artifact("backup"), content: block("backup", "* * * * * x"), expected: block("backup", "* * * * * x") }], ctx),
    );
    expect(error.message).toBe("the crontab of alice changed since the plan was made (block tend:backup differs); nothing was written");
    expect(fake.installs).toEqual([]);
  });

  it("refuses damaged markers, saying where, and installs nothing", async () => {
    const { fake, ctx, store } = await setup();
    fake.crontabs.set("alice", "# mine\n# BEGIN tend:backup\n30 2 * * * x\n# BEGIN tend:backup\n");
    const error = await failure(store.read(["crontab alice: tend:backup"], ctx));
    expect(error.code).toBe("TEND_CRONTAB_DAMAGED");
    expect(error.message).toContain("line 4");
    expect(fake.installs).toEqual([]);
  });

  it("never adds a newline to a user's line: blocks go before an unterminated last comment", async () => {
    const { fake, ctx, store } = await setup();
    fake.crontabs.set("alice", "0 1 * * * mine\n# the end");
    await store.read(["crontab alice: tend:a"], ctx);
    await store.write([{ artifact: artifact("a"), content: block("a", "* * * * * x"), expected: null }], ctx);
    expect(fake.crontabs.get("alice")).toBe(`0 1 * * * mine\n${block("a", "* * * * * x")}# the end`);
  });

  it.each([
    [
      "a crontab ending in a job without newline, which crontab would not install",
      "# mine\n0 1 * * * mine",
      "TEND_CRONTAB_NO_FINAL_NEWLINE",
      "the crontab of alice ends in `0 1 * * * mine` without a newline: cron ignores that line, and crontab refuses to install such a file",
    ],
    [
      "a crontab whose own lines held bytes that are not UTF-8 (read as U+FFFD)",
      "# mine\n# caf\uFFFD au lait\n0 1 * * * echo \uFFFDt\uFFFD\n",
      "TEND_CRONTAB_NOT_UTF8",
      "the crontab of alice holds bytes that are not UTF-8 on line 2 (saved as Latin-1?): tend would not write them back as they are, so it leaves the crontab unchanged",
    ],
  ])("refuses, installing nothing, %s", async (_what, crontab, code, message) => {
    const { fake, ctx, store } = await setup();
    fake.crontabs.set("alice", crontab);
    await store.read(["crontab alice: tend:a"], ctx);
    const error = await failure(store.write([{ artifact: artifact("a"), content: block("a", "* * * * * x"), expected: null }], ctx));
    expect([error.code, error.message]).toEqual([code, message]);
    expect(fake.installs).toEqual([]);
  });

  it("runs no install when nothing would change", async () => {
    const { fake, ctx, store } = await setup();
    const content = block("a", "* * * * * x");
    fake.crontabs.set("alice", `# mine\n${content}`);
    await store.write([{ artifact: artifact("a"), content, expected: content }], ctx);
    expect(fake.runner.lines).toEqual(["crontab -u alice -l"]);
  });

  it("leaves out -u when tend does not run as root", async () => {
    const { fake, ctx, store } = await setup({ asRoot: false, invokingUser: "alice" });
    await store.read(["crontab alice: tend:a"], ctx);
    await store.write([{ artifact: artifact("a"), content: block("a", "* * * * * x"), expected: null }], ctx);
    expect(fake.runner.lines).toEqual(["crontab -l", "crontab -l", "crontab -"]);
    expect(fake.crontabs.get("alice")).toBe(block("a", "* * * * * x"));
  });

  it("uses the image's own crontab under --root", async () => {
    const { fake, ctx, store } = await setup({ offline: true });
    await store.read(["crontab alice: tend:a"], ctx);
    await store.write([{ artifact: artifact("a"), content: block("a", "* * * * * x"), expected: null }], ctx);
    expect(fake.runner.lines).toEqual([
      `chroot ${ctx.rootDir} crontab -u alice -l`,
      `chroot ${ctx.rootDir} crontab -u alice -l`,
      `chroot ${ctx.rootDir} crontab -u alice -`,
    ]);
  });

  it("handles several users, each with its own crontab", async () => {
    const { fake, ctx, store } = await setup();
    fake.crontabs.set("bob", "# bob's\n");
    await store.read(["crontab alice: tend:a", "crontab bob: tend:b"], ctx);
    await store.write(
      [
        { artifact: artifact("a"), content: block("a", "* * * * * x"), expected: null },
        { artifact: artifact("b", "bob"), content: block("b", "* * * * * y"), expected: null },
      ],
      ctx,
    );
    expect(fake.crontabs.get("alice")).toBe(block("a", "* * * * * x"));
    expect(fake.crontabs.get("bob")).toBe(`# bob's\n${block("b", "* * * * * y")}`);
  });
});
