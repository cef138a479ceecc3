import { mkdir, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { applyContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { deptreeHasService, DEPTREE_PATH, hostProvidesNet } from "./find-net-providers.js";

// OpenRC's dependency cache from Debian 12 (nothing provides net), and the same host with a
// script that does `provide net` as Alpine's networking does.
const debian = readFileSync(new URL("./__fixtures__/deptree-debian.txt", import.meta.url), "utf8");
const withNet = readFileSync(new URL("./__fixtures__/deptree-provides-net.txt", import.meta.url), "utf8");

async function host(files: Record<string, string>) {
  const ctx = await applyContext({ init: "openrc" });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(ctx.rootDir, path, ".."), { recursive: true });
    await writeFile(join(ctx.rootDir, path), content);
  }
  return ctx;
}

describe("deptreeHasService", () => {
  it("finds net as a virtual service provided by another", () => {
    expect(deptreeHasService(withNet, "net")).toBe(true);
    expect(deptreeHasService(debian, "net")).toBe(false);
    expect(deptreeHasService(debian, "procps")).toBe(true);
  });
});

describe("hostProvidesNet", () => {
  it("takes the dependency cache's word for a provider on a live host", async () => {
    expect(await hostProvidesNet((await host({ [DEPTREE_PATH]: withNet })).files, false)).toBe(true);
    expect(await hostProvidesNet((await host({ [DEPTREE_PATH]: debian })).files, false)).toBe(false);
  });

  it("counts a provider the cache does not hold yet (installed in the second it was built)", async () => {
    const ctx = await host({ [DEPTREE_PATH]: debian, "/etc/init.d/networking": "#!/sbin/openrc-run\ndepend() {\n\tprovide net\n}\n" });
    expect(await hostProvidesNet(ctx.files, false)).toBe(true);
  });

  it("scans scripts and conf.d files offline", async () => {
    const none = await host({ "/etc/init.d/sshd": "#!/sbin/openrc-run\ndepend() {\n\tneed net\n\tprovide sshd\n}\n" });
    expect(await hostProvidesNet(none.files, true)).toBe(false);
    const script = await host({ "/etc/init.d/networking": "#!/sbin/openrc-run\ndepend() {\n\tneed localmount\n\tprovide net\n}\n" });
    expect(await hostProvidesNet(script.files, true)).toBe(true);
    const several = await host({ "/etc/init.d/dhcpcd": "depend()\n{\n\tprovide dns net\n}\n" });
    expect(await hostProvidesNet(several.files, true)).toBe(true);
    const conf = await host({ "/etc/init.d/wifi": "#!/sbin/openrc-run\n", "/etc/conf.d/wifi": 'rc_provide="net"\n' });
    expect(await hostProvidesNet(conf.files, true)).toBe(true);
    const named = await host({ "/etc/init.d/net": "#!/sbin/openrc-run\n" });
    expect(await hostProvidesNet(named.files, true)).toBe(true);
    const lookalike = await host({ "/etc/init.d/x": "#!/sbin/openrc-run\n# provide net\ndepend() {\n\tprovide netmount network\n}\n" });
    expect(await hostProvidesNet(lookalike.files, true)).toBe(false);
  });

  it("scans when a live host has no cache yet", async () => {
    const ctx = await host({ "/etc/init.d/networking": "#!/sbin/openrc-run\ndepend() {\n\tprovide net\n}\n" });
    expect(await hostProvidesNet(ctx.files, false)).toBe(true);
  });
});
