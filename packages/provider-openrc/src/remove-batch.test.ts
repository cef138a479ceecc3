import { lstat, readlink } from "node:fs/promises";
import { join } from "node:path";
import type { ResourceChange, Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { writeHostTree, type HostTree } from "@tend/testkit";
import { removeBatch, removeService } from "./remove-batch.js";

const removal = (resource: Service): ResourceChange => ({ key: `service:${resource.name}`, action: "remove", resource, ops: [], filesChanged: true, reasons: [] });
const web: Service = { type: "service", name: "web", exec: "/opt/web/bin/server" };
const sshd: Service = { type: "service", name: "sshd" };

async function run(resource: Service, tree: HostTree, offline = false) {
  const runner = new RecordingRunner();
  const ctx = await applyContext({ init: "openrc", runner, offline });
  await writeHostTree(ctx.rootDir, tree);
  await removeService(removal(resource), ctx);
  return { lines: runner.lines, root: ctx.rootDir, logged: ctx.logged };
}

describe("removeService", () => {
  it("stops a tend service and takes it out of every runlevel before the core deletes the script", async () => {
    const { lines, root } = await run(web, {
      "/etc/init.d/tend-web": "#!/sbin/openrc-run\n",
      "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" },
      "/etc/runlevels/nonetwork/tend-web": { link: "/etc/init.d/tend-web" },
    });
    expect(lines).toEqual(["rc-service -- tend-web stop"]);
    for (const runlevel of ["default", "nonetwork"]) await expect(lstat(join(root, `/etc/runlevels/${runlevel}/tend-web`))).rejects.toThrow(/ENOENT/);
  });

  it("stops the old way a process kept another way than the script on disk says (an apply killed between writing it and restarting)", async () => {
    const { lines } = await run(web, {
      "/etc/init.d/tend-web": "#!/sbin/openrc-run\ncommand_background=true\n",
      "/run/supervise-tend-web.pid": "4300\n",
      "/proc/4300": { dir: true },
      "/run/openrc/options/tend-web/child_pid": "4301\n",
    });
    expect(lines[0]).toBe("supervise-daemon tend-web --stop");
    expect(lines.at(-1)).toBe("rc-service -- tend-web zap");
    expect(lines).not.toContain("rc-service -- tend-web stop");
    // The script's own way: its stop.
    const same = await run(web, { "/etc/init.d/tend-web": "#!/sbin/openrc-run\nsupervisor=supervise-daemon\n", "/run/supervise-tend-web.pid": "4300\n", "/proc/4300": { dir: true } });
    expect(same.lines).toEqual(["rc-service -- tend-web stop"]);
  });

  it("resets, without its own stop (which would fail), a tend service OpenRC counts started while no process it recorded lives", async () => {
    const script = { "/etc/init.d/tend-web": "#!/sbin/openrc-run\nsupervisor=supervise-daemon\n", "/run/openrc/started/tend-web": { link: "/etc/init.d/tend-web" } } as const;
    expect((await run(web, { ...script, "/run/tend-web.pid": "4302\n" })).lines).toEqual(["rc-service -- tend-web zap"]);
    // Stopped as OpenRC knows it: its stop, which has nothing to do.
    expect((await run(web, { "/etc/init.d/tend-web": script["/etc/init.d/tend-web"] })).lines).toEqual(["rc-service -- tend-web stop"]);
  });

  it("only disables a distro service, from default, and leaves it running", async () => {
    const { lines, root } = await run(sshd, {
      "/etc/init.d/sshd": "#!/sbin/openrc-run\n",
      "/etc/runlevels/default/sshd": { link: "/etc/init.d/sshd" },
      "/etc/runlevels/boot/sshd": { link: "/etc/init.d/sshd" },
    });
    expect(lines).toEqual([]);
    await expect(lstat(join(root, "/etc/runlevels/default/sshd"))).rejects.toThrow(/ENOENT/);
    expect(await readlink(join(root, "/etc/runlevels/boot/sshd"))).toBe("/etc/init.d/sshd");
  });

  it("removes the links itself when the script is already gone", async () => {
    const { lines, root, logged } = await run(web, { "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" } });
    expect(lines).toEqual([]);
    expect(logged).toEqual(["service:web: /etc/init.d/tend-web was already gone; removed its links from default"]);
    await expect(lstat(join(root, "/etc/runlevels/default/tend-web"))).rejects.toThrow(/ENOENT/);
  });

  it("offline, removes the links and runs nothing", async () => {
    const { lines, root } = await run(
      web,
      { "/etc/init.d/tend-web": "#!/sbin/openrc-run\n", "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" } },
      true,
    );
    expect(lines).toEqual([]);
    await expect(lstat(join(root, "/etc/runlevels/default/tend-web"))).rejects.toThrow(/ENOENT/);
  });

  it("removes a wave of 3 and of 60 services with one rc-service stop each and nothing else, pinning a failure on its service", async () => {
    const many = (count: number) => Array.from({ length: count }, (_, i): Service => ({ type: "service", name: `s${i}`, exec: `/opt/s/bin/s${i}` }));
    const commandsFor = async (count: number) => {
      const tree: HostTree = {};
      for (const s of many(count)) {
        tree[`/etc/init.d/tend-${s.name}`] = "#!/sbin/openrc-run\n";
        tree[`/etc/runlevels/default/tend-${s.name}`] = { link: `/etc/init.d/tend-${s.name}` };
      }
      const runner = new RecordingRunner().on("rc-service -- tend-s1 stop", { exitCode: 1 });
      const ctx = await applyContext({ init: "openrc", runner });
      await writeHostTree(ctx.rootDir, tree);
      const failures = await removeBatch(many(count).map(removal), ctx);
      expect([...failures.keys()]).toEqual(["service:s1"]);
      expect(await readlink(join(ctx.rootDir, "/etc/runlevels/default/tend-s1"))).toBe("/etc/init.d/tend-s1");
      await expect(lstat(join(ctx.rootDir, "/etc/runlevels/default/tend-s2"))).rejects.toThrow(/ENOENT/);
      return runner.lines;
    };
    expect(await commandsFor(3)).toEqual(["rc-service -- tend-s0 stop", "rc-service -- tend-s1 stop", "rc-service -- tend-s2 stop"]);
    expect((await commandsFor(60)).every((line) => /^rc-service -- tend-s\d+ stop$/.test(line))).toBe(true);
  });
});
