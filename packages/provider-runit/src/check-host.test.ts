import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Service } from "@tend/core";
import { ALICE, applyContext } from "@tend/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkHost } from "./check-host.js";
import { ensureUserRunsvdir, userRunsvdir } from "./user-runsvdir.js";

const service = (name: string, fields: Omit<Service, "type" | "name"> = {}): Service => ({ type: "service", name, ...fields });

describe("checkHost", () => {
  afterEach(() => vi.restoreAllMocks());

  it("fails a distro service whose /etc/sv/<name> is missing, with the seed's text", async () => {
    const ctx = await applyContext({ init: "runit" });
    await mkdir(join(ctx.rootDir, "etc/sv/sshd"), { recursive: true });
    const problems = await checkHost([service("sshd"), service("gdm"), service("web", { exec: "/bin/web" })], new Map(), ctx);
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      ["TEND_DISTRO_UNIT_MISSING", "service:gdm has no exec, but /etc/sv/gdm does not exist; install the package that ships it"],
    ]);
  });

  it("user services need root while tend-runsvdir-<user> is missing", async () => {
    const ctx = await applyContext({ init: "runit", scope: ALICE });
    const syncthing = service("syncthing", { exec: "syncthing serve", user: true });
    expect(await checkHost([syncthing], new Map(), ctx)).toEqual([]); // root

    vi.spyOn(process as Required<Pick<NodeJS.Process, "getuid">>, "getuid").mockReturnValue(1000);
    const [problem] = await checkHost([syncthing], new Map(), ctx);
    expect(problem).toMatchObject({ code: "TEND_RUNIT_NEEDS_ROOT", hint: "Run this apply as root: tend apply --user alice", location: { resource: "service:syncthing" } });

    vi.restoreAllMocks();
    await ensureUserRunsvdir(userRunsvdir("alice", "/home/alice"), ctx);
    vi.spyOn(process as Required<Pick<NodeJS.Process, "getuid">>, "getuid").mockReturnValue(1000);
    expect(await checkHost([syncthing], new Map(), ctx)).toEqual([]);
  });
});
