import { readFileSync } from "node:fs";
import type { Service } from "@tend/core";
import { applyContext } from "@tend/testkit";
import { describe, expect, it } from "vitest";
import { writeHostTree, type HostTree } from "@tend/testkit";
import { checkHost } from "./check-host.js";

const debian = readFileSync(new URL("./__fixtures__/deptree-debian.txt", import.meta.url), "utf8");
const withNet = readFileSync(new URL("./__fixtures__/deptree-provides-net.txt", import.meta.url), "utf8");

async function check(resources: Service[], tree: HostTree, offline = false) {
  const ctx = await applyContext({ init: "openrc", offline });
  await writeHostTree(ctx.rootDir, tree);
  return checkHost(resources, new Map(), ctx);
}

const web: Service = { type: "service", name: "web", exec: "/opt/web/bin/server", after: ["network"] };

describe("checkHost", () => {
  it("fails a distro service whose script is missing, with the seed's text", async () => {
    const problems = await check([{ type: "service", name: "gdm" }], { "/etc/init.d/sshd": "#!/sbin/openrc-run\n" });
    expect(problems.map((p) => p.message)).toEqual(["service:gdm has no exec, but /etc/init.d/gdm does not exist; install the package that ships it"]);
    expect(problems[0]!.code).toBe("TEND_DISTRO_UNIT_MISSING");
    expect(await check([{ type: "service", name: "sshd" }], { "/etc/init.d/sshd": "#!/sbin/openrc-run\n" })).toEqual([]);
  });

  it("fails need net where nothing provides net (Debian)", async () => {
    const problems = await check([web, { type: "service", name: "db", exec: "/opt/db" }], { "/run/openrc/deptree": debian });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toBe(
      'service:web orders itself after "network", which OpenRC writes as `need net`, but no service on this host provides `net`, so OpenRC would never start it',
    );
    expect(problems[0]!.location).toMatchObject({ resource: "service:web", field: "after" });
    expect(problems[0]!.hint).toMatch(/Drop "network"/);
  });

  it("accepts need net where a service provides net", async () => {
    expect(await check([web], { "/run/openrc/deptree": withNet })).toEqual([]);
  });

  it("checks an image root by its scripts", async () => {
    expect(await check([web], { "/etc/init.d/networking": "#!/sbin/openrc-run\ndepend() {\n\tprovide net\n}\n" }, true)).toEqual([]);
    expect(await check([web], { "/etc/init.d/sshd": "#!/sbin/openrc-run\n" }, true)).toHaveLength(1);
  });
});
