import { mkdirSync } from "node:fs";
import { mkdir, readFile, readlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { errors, ServiceSchema, TendError, type ResourceChange, type Operation } from "@tend/core";
import { RecordingRunner, applyContext } from "@tend/testkit";
import { compileAndSwitch } from "./compile-and-switch.js";
import { renderLongrun } from "./render-longrun.js";
import { HARD_STACK_LIMIT_SCRIPT } from "./with-hard-stack-limit.js";

function change(name: string, action: ResourceChange["action"], ops: Operation[], filesChanged = true): ResourceChange {
  return { key: `service:${name}`, action, resource: ServiceSchema.parse({ type: "service", name, exec: `/usr/bin/${name}` }), ops, filesChanged, reasons: [] };
}
const webFiles = ["/etc/s6/sv/tend-web", "/etc/s6/sv/tend-web/type", "/etc/s6/sv/tend-web/run", "/etc/s6/sv/tend/contents.d/tend-web"];
const stderr = (name: string) => readFile(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");

describe("compileAndSwitch", () => {
  it("compiles a fresh generation, switches to it and points current at it (an add)", async () => {
    const ctx = await applyContext({ init: "s6" });
    await compileAndSwitch([change("web", "add", ["enable", "start"])], webFiles, ctx);
    expect(ctx.runner.lines).toEqual([
      `s6-rc-compile ${ctx.rootDir}/etc/s6/db/tend-g1-a ${ctx.rootDir}/etc/s6/sv`,
      "s6-rc-update -b -l /run/s6-rc /etc/s6/db/tend-g1-a",
    ]);
    expect(await readlink(join(ctx.rootDir, "etc/s6/db/current"))).toBe("tend-g1-a");
    expect(await readFile(join(ctx.rootDir, "etc/s6/sv/tend/type"), "utf8")).toBe("bundle\n");
    expect(ctx.state.get("generation")).toBe(1);
  });

  it("takes the generation from the state and skips names that exist (the target must not exist)", async () => {
    const ctx = await applyContext({ init: "s6" });
    ctx.state.set("generation", 6);
    await mkdir(join(ctx.rootDir, "etc/s6/db/tend-g7-a"), { recursive: true });
    await compileAndSwitch([change("web", "change", ["restart"])], webFiles, ctx);
    expect(ctx.runner.lines[0]).toBe(`s6-rc-compile ${ctx.rootDir}/etc/s6/db/tend-g8-a ${ctx.rootDir}/etc/s6/sv`);
    expect(ctx.state.get("generation")).toBe(8);
    expect(await readlink(join(ctx.rootDir, "etc/s6/db/current"))).toBe("tend-g8-a");
  });

  it("restarts changed running longruns through a conversion file, only those the live database holds", async () => {
    const runner = new RecordingRunner().on("s6-rc-db -b -l /run/s6-rc list services", { stdout: "s6rc-oneshot-runner\ntend-web\ntend-api\n" });
    const ctx = await applyContext({ init: "s6", runner });
    const changes = [
      change("web", "change", ["restart"]),
      change("api", "change", ["restart"]),
      change("stopped", "change", ["start"]),
      change("ghost", "change", ["restart"]), // not in the live database: apply starts it
      change("trigger", "change", ["restart"], false), // restartOn, files unchanged: apply restarts it
    ];
    await compileAndSwitch(changes, webFiles, ctx);
    expect(runner.lines.slice(1)).toEqual([
      "s6-rc-db -b -l /run/s6-rc list services",
      "s6-rc-update -b -l /run/s6-rc -f /etc/s6/db/tend-g1-a.conversion /etc/s6/db/tend-g1-a",
    ]);
    expect(await readFile(join(ctx.rootDir, "etc/s6/db/tend-g1-a.conversion"), "utf8")).toBe("tend-api restart\ntend-web restart\n");
    expect(ctx.state.get("restartedByUpdate")).toEqual({ generation: 1, services: ["tend-api", "tend-web"] });
  });

  it("compiles when a boot membership is out of line although no file changed", async () => {
    const ctx = await applyContext({ init: "s6" });
    await compileAndSwitch([change("web", "change", ["enable"], false)], [], ctx);
    expect(ctx.runner.lines).toHaveLength(2);
  });

  it("does nothing when no source definition changed", async () => {
    const ctx = await applyContext({ init: "s6" });
    await compileAndSwitch([change("web", "change", ["start"], false)], ["/etc/nginx/nginx.conf"], ctx);
    expect(ctx.runner.lines).toEqual([]);
  });

  it("offline: compiles under the root and flips current, nothing live", async () => {
    const ctx = await applyContext({ init: "s6", offline: true });
    await compileAndSwitch([change("web", "add", ["enable", "start"]), change("api", "change", ["restart"])], webFiles, ctx);
    expect(ctx.runner.lines).toEqual([`s6-rc-compile ${ctx.rootDir}/etc/s6/db/tend-g1-a ${ctx.rootDir}/etc/s6/sv`]);
    expect(await readlink(join(ctx.rootDir, "etc/s6/db/current"))).toBe("tend-g1-a");
  });

  it("keeps an existing bundle and its contents folder as they are", async () => {
    const ctx = await applyContext({ init: "s6" });
    await mkdir(join(ctx.rootDir, "etc/s6/sv/tend/contents.d"), { recursive: true });
    await writeFile(join(ctx.rootDir, "etc/s6/sv/tend/type"), "bundle\n");
    await writeFile(join(ctx.rootDir, "etc/s6/sv/tend/contents.d/tend-other"), "");
    await compileAndSwitch([change("web", "remove", [])], ["/etc/s6/sv/tend/contents.d/tend-web"], ctx);
    expect(await readFile(join(ctx.rootDir, "etc/s6/sv/tend/contents.d/tend-other"), "utf8")).toBe("");
  });

  it("refuses to compile when /etc/s6/sv/tend is someone else's service", async () => {
    const ctx = await applyContext({ init: "s6" });
    await mkdir(join(ctx.rootDir, "etc/s6/sv/tend"), { recursive: true });
    await writeFile(join(ctx.rootDir, "etc/s6/sv/tend/type"), "longrun\n");
    await expect(compileAndSwitch([change("web", "add", ["enable", "start"])], webFiles, ctx)).rejects.toThrow(/is not a bundle/);
    expect(ctx.runner.lines).toEqual([]);
  });

  it("follows a switched database with current even when transitions failed (exit 1), then fails", async () => {
    const runner = new RecordingRunner()
      .on("s6-rc-db -b -l /run/s6-rc list services", { stdout: "tend-web\n" })
      .on("s6-rc-update", { exitCode: 1, stderr: await stderr("s6-rc-update-transition-failed.stderr.txt") });
    const ctx = await applyContext({ init: "s6", runner });
    await expect(compileAndSwitch([change("web", "change", ["restart"])], webFiles, ctx)).rejects.toThrow(
      /exited 1: s6-svlisten1: fatal: timed out\ns6-rc: warning: unable to start service tend-web: command exited 99; the live database is \/etc\/s6\/db\/tend-g1-a/,
    );
    expect(await readlink(join(ctx.rootDir, "etc/s6/db/current"))).toBe("tend-g1-a");
  });

  it("leaves current alone when the database was not switched (exit 9)", async () => {
    const runner = new RecordingRunner().on("s6-rc-update", { exitCode: 9, stderr: await stderr("s6-rc-update-not-switched.stderr.txt") });
    const ctx = await applyContext({ init: "s6", runner });
    await mkdir(join(ctx.rootDir, "etc/s6/db"), { recursive: true });
    await expect(compileAndSwitch([change("web", "add", ["enable", "start"])], webFiles, ctx)).rejects.toThrow(/exited 9: [\s\S]*s6-rc-update: fatal: first s6-rc invocation failed/);
    await expect(readlink(join(ctx.rootDir, "etc/s6/db/current"))).rejects.toThrow(/ENOENT/);
  });

  it("fails with s6-rc-compile's message on a bad source definition", async () => {
    const runner = new RecordingRunner().on("s6-rc-compile", { exitCode: 1, stderr: await stderr("s6-rc-compile-unknown-dependency.stderr.txt") });
    const ctx = await applyContext({ init: "s6", runner });
    await expect(compileAndSwitch([change("web", "add", ["enable", "start"])], webFiles, ctx)).rejects.toThrow(/exited 1: s6-rc-compile: fatal: during dependency resolution for service tend-web: undefined service name tend-db/);
    expect(runner.lines).toHaveLength(1);
  });

  describe("s6-rc-compile overflowing its stack (it does at ~10,000 services under 8 MB)", () => {
    const segfault = (command: { argv: string[] }) => {
      throw errors.commandFailed(command.argv, undefined, "killed by SIGSEGV");
    };

    it("compiles again with the stack's soft limit raised to the hard one, and goes on", async () => {
      const runner = new RecordingRunner().on("s6-rc-compile", segfault).on("sh", (command) => {
        mkdirSync(command.argv[4]!);
        return {};
      });
      const ctx = await applyContext({ init: "s6", runner });
      await compileAndSwitch([change("web", "add", ["enable", "start"])], webFiles, ctx);
      const compile = `s6-rc-compile ${ctx.rootDir}/etc/s6/db/tend-g1-a ${ctx.rootDir}/etc/s6/sv`;
      expect(runner.lines).toEqual([compile, `sh -c ${HARD_STACK_LIMIT_SCRIPT} ${compile}`, "s6-rc-update -b -l /run/s6-rc /etc/s6/db/tend-g1-a"]);
      expect(await readlink(join(ctx.rootDir, "etc/s6/db/current"))).toBe("tend-g1-a");
    });

    it("says how to give it a bigger hard limit when it dies of SIGSEGV at that one too; the failure names s6-rc-compile", async () => {
      const runner = new RecordingRunner().on("s6-rc-compile", segfault).on("sh", segfault);
      const ctx = await applyContext({ init: "s6", runner });
      const failure = await compileAndSwitch([change("web", "add", ["enable", "start"])], webFiles, ctx).catch((error: unknown) => error);
      expect(TendError.isInstance(failure)).toBe(true);
      expect((failure as TendError).message).toBe(`\`s6-rc-compile ${ctx.rootDir}/etc/s6/db/tend-g1-a ${ctx.rootDir}/etc/s6/sv\` did not finish: killed by SIGSEGV`);
      expect((failure as TendError).hint).toMatch(/ulimit -H -s unlimited/);
      expect(runner.lines).toHaveLength(2);
      await expect(readlink(join(ctx.rootDir, "etc/s6/db/current"))).rejects.toThrow(/ENOENT/);
    });

    it("leaves the second run's other failures as they are, under s6-rc-compile's name", async () => {
      const runner = new RecordingRunner().on("s6-rc-compile", segfault).on("sh", { exitCode: 1, stderr: "s6-rc-compile: fatal: unable to mkdir db: File exists\n" });
      const ctx = await applyContext({ init: "s6", runner });
      const failure = await compileAndSwitch([change("web", "add", ["enable", "start"])], webFiles, ctx).catch((error: unknown) => error);
      expect((failure as TendError).message).toBe(
        `\`s6-rc-compile ${ctx.rootDir}/etc/s6/db/tend-g1-a ${ctx.rootDir}/etc/s6/sv\` exited 1: s6-rc-compile: fatal: unable to mkdir db: File exists`,
      );
      expect((failure as TendError).hint).toBeUndefined();
    });

    it("does not run it again for any other failure", async () => {
      const runner = new RecordingRunner().on("s6-rc-compile", (command) => {
        throw errors.commandFailed(command.argv, undefined, "killed by SIGKILL");
      });
      const failed = await compileAndSwitch([change("web", "add", ["enable", "start"])], webFiles, await applyContext({ init: "s6", runner })).catch((error: unknown) => error);
      expect((failed as TendError).message).toMatch(/did not finish: killed by SIGKILL$/);
      expect((failed as TendError).hint).toBeUndefined();
      expect(runner.lines).toHaveLength(1);
    });
  });

  describe("the note of what a database was compiled from", () => {
    /** A runner whose s6-rc-compile makes the database folder, as the real one does. */
    const compiling = () =>
      new RecordingRunner().on("s6-rc-compile", (command) => {
        mkdirSync(command.argv[1]!);
        return {};
      });
    async function writeSources(ctx: Awaited<ReturnType<typeof applyContext>>, ...services: Parameters<typeof renderLongrun>[0][]) {
      for (const service of services) {
        for (const artifact of renderLongrun(service)) {
          if (artifact.store === "directory") await ctx.files.mkdir(artifact.path, { mode: 0o755 });
          else await ctx.files.writeFile(artifact.path, artifact.content, { mode: artifact.mode ?? 0o644 });
        }
      }
    }
    const web = (version: string) => ServiceSchema.parse({ type: "service", name: "web", exec: `/usr/bin/web --version ${version}`, after: ["db"] });
    const db = ServiceSchema.parse({ type: "service", name: "db", exec: "/usr/bin/db", desired: { state: "running", enabled: false } });

    it("lies beside the database: each tend service with a digest of its definition, and the bundle's members", async () => {
      const ctx = await applyContext({ init: "s6", runner: compiling(), offline: true });
      await writeSources(ctx, web("1"), db);
      await compileAndSwitch([change("web", "add", ["enable"]), change("db", "add", [])], webFiles, ctx);
      const note = await readFile(join(ctx.rootDir, "etc/s6/db/tend-g1-a.sources"), "utf8");
      expect(note).toMatch(/^# Compiled by tend from \/etc\/s6\/sv: .*\nservice tend-db [0-9a-f]{32}\nservice tend-web [0-9a-f]{32}\nbundle tend-web\n$/);
    });

    it("is not written when the compile fails", async () => {
      const ctx = await applyContext({ init: "s6", runner: new RecordingRunner().on("s6-rc-compile", { exitCode: 1 }), offline: true });
      await writeSources(ctx, web("1"));
      await expect(compileAndSwitch([change("web", "add", ["enable"])], webFiles, ctx)).rejects.toThrow();
      await expect(readFile(join(ctx.rootDir, "etc/s6/db/tend-g1-a.sources"), "utf8")).rejects.toThrow(/ENOENT/);
    });

    it("makes an apply compile again when the database boot uses predates the sources (an apply stopped before its compile)", async () => {
      const ctx = await applyContext({ init: "s6", runner: compiling(), offline: true });
      await writeSources(ctx, web("1"), db);
      await compileAndSwitch([change("web", "add", ["enable"])], webFiles, ctx);
      ctx.runner.clear();
      await compileAndSwitch([change("web", "change", [], false)], [], ctx);
      expect(ctx.runner.lines).toEqual([]); // the database holds what the sources say
      await writeSources(ctx, web("2"));
      await compileAndSwitch([change("web", "change", [], false)], [], ctx);
      expect(ctx.runner.lines).toEqual([`s6-rc-compile ${ctx.rootDir}/etc/s6/db/tend-g2-a ${ctx.rootDir}/etc/s6/sv`]);
      expect(await readlink(join(ctx.rootDir, "etc/s6/db/current"))).toBe("tend-g2-a");
    });
  });
});
