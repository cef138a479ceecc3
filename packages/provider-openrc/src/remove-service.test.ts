import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { ResourceChange, Service } from "@tend/core";
import { applyContext, RecordingRunner } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { writeHostTree, type HostTree } from "@tend/testkit";
import { removeService } from "./remove-service.js";

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
    const { lines } = await run(web, {
      "/etc/init.d/tend-web": "#!/sbin/openrc-run\n",
      "/etc/runlevels/default/tend-web": { link: "/etc/init.d/tend-web" },
      "/etc/runlevels/nonetwork/tend-web": { link: "/etc/init.d/tend-web" },
    });
    expect(lines).toEqual(["rc-service -- tend-web stop", "rc-update del -- tend-web default", "rc-update del -- tend-web nonetwork"]);
  });

  it("does not call rc-update del for a runlevel the service is not in", async () => {
    expect((await run(web, { "/etc/init.d/tend-web": "#!/sbin/openrc-run\n", "/etc/runlevels/default": { dir: true } })).lines).toEqual([
      "rc-service -- tend-web stop",
    ]);
  });

  it("only disables a distro service, from default, and leaves it running", async () => {
    const { lines } = await run(sshd, {
      "/etc/init.d/sshd": "#!/sbin/openrc-run\n",
      "/etc/runlevels/default/sshd": { link: "/etc/init.d/sshd" },
      "/etc/runlevels/boot/sshd": { link: "/etc/init.d/sshd" },
    });
    expect(lines).toEqual(["rc-update del -- sshd default"]);
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
});
