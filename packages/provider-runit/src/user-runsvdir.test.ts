import { applyContext, ALICE } from "@tend/testkit";
import { readFile, readlink, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ensureUserRunsvdir, renderUserRunsvdirScript, userRunsvdir } from "./user-runsvdir.js";

const alice = userRunsvdir("alice", "/home/alice");

describe("tend-runsvdir-<user>", () => {
  afterEach(() => vi.restoreAllMocks());

  it("renders the user's runsvdir run script", async () => {
    expect(alice).toEqual({ user: "alice", home: "/home/alice", dir: "/etc/sv/tend-runsvdir-alice", link: "/etc/runit/runsvdir/default/tend-runsvdir-alice" });
    await expect(renderUserRunsvdirScript(alice)).toMatchFileSnapshot("./__golden__/tend-runsvdir-alice.txt");
  });

  it("quotes an odd home", () => {
    expect(renderUserRunsvdirScript(userRunsvdir("bob", "/srv/home dirs/bob"))).toContain("export USER=bob HOME='/srv/home dirs/bob'\n");
  });

  it("is written once, as root, and linked", async () => {
    const ctx = await applyContext({ init: "runit", scope: ALICE });
    expect(await ensureUserRunsvdir(alice, ctx)).toBe(true);
    const run = join(ctx.rootDir, alice.dir, "run");
    expect(await readFile(run, "utf8")).toBe(renderUserRunsvdirScript(alice));
    expect((await stat(run)).mode & 0o777).toBe(0o755);
    expect(await readlink(join(ctx.rootDir, alice.link))).toBe(alice.dir);
    expect(await ensureUserRunsvdir(alice, ctx)).toBe(false);
    expect(ctx.runner.calls).toEqual([]);
  });

  it("refuses to create it without root", async () => {
    vi.spyOn(process as Required<Pick<NodeJS.Process, "getuid">>, "getuid").mockReturnValue(1000);
    const ctx = await applyContext({ init: "runit", scope: ALICE });
    await expect(ensureUserRunsvdir(alice, ctx)).rejects.toMatchObject({
      code: "TEND_RUNIT_NEEDS_ROOT",
      message:
        "runit runs the user services of alice through the system service /etc/sv/tend-runsvdir-alice, which is missing or out of date, and only root can write it",
    });
  });

  it("needs no root once it is in place", async () => {
    const ctx = await applyContext({ init: "runit", scope: ALICE });
    await ensureUserRunsvdir(alice, ctx);
    vi.spyOn(process as Required<Pick<NodeJS.Process, "getuid">>, "getuid").mockReturnValue(1000);
    expect(await ensureUserRunsvdir(alice, ctx)).toBe(false);
  });
});
