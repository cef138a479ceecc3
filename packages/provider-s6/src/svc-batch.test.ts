import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RecordingRunner, applyContext } from "@tend/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { parseSvcBatch, svcBatch, svcBatchCommand } from "./svc-batch.js";

const stubs = mkdtempSync(join(tmpdir(), "tend-s6-svc-"));
afterAll(() => rmSync(stubs, { recursive: true, force: true }));

/** A stand-in for s6-svc: logs its arguments, and fails as s6-svc does for a directory no s6-supervise watches. */
writeFileSync(
  join(stubs, "s6-svc"),
  `#!/bin/sh\necho "$*" >> ${stubs}/calls\nfor dir; do :; done\ncase "$dir" in *unwatched*) echo "s6-svc: fatal: unable to control $dir: supervisor not listening" >&2; exit 100 ;; esac\n`,
);
chmodSync(join(stubs, "s6-svc"), 0o755);

describe("svcBatchCommand under a real /bin/sh", () => {
  it("runs s6-svc once per directory, side by side, one answer line each", () => {
    const dirs = ["/run/s6-rc/servicedirs/tend-a", "/run/s6-rc/servicedirs/tend-unwatched", "/run/s6-rc/servicedirs/tend-it's $HOME"];
    const [sh, ...args] = svcBatchCommand(["-d", "-wD", "-T", "20000"], dirs).argv;
    const output = execFileSync(sh!, args, { encoding: "utf8", env: { PATH: `${stubs}:/usr/bin:/bin` } });
    expect(readFileSync(join(stubs, "calls"), "utf8").split("\n").filter(Boolean).sort()).toEqual(dirs.map((d) => `-d -wD -T 20000 -- ${d}`).sort());
    const answers = parseSvcBatch(output);
    expect(answers.get(dirs[0]!)).toEqual({ ok: true });
    expect(answers.get(dirs[1]!)).toEqual({ ok: false, exitCode: 100, message: `s6-svc: fatal: unable to control ${dirs[1]}: supervisor not listening` });
  });

  it("bounds the batch by s6-svc's own wait when it waits", () => {
    expect(svcBatchCommand(["-d", "-wD", "-T", "20000"], ["/x"]).timeoutMs).toBe(35_000);
    expect(svcBatchCommand(["-h"], ["/x"]).timeoutMs).toBe(15_000);
  });
});

describe("svcBatch", () => {
  const targets = [
    { key: "service:a", dir: "/run/s6-rc/servicedirs/tend-a" },
    { key: "service:b", dir: "/run/s6-rc/servicedirs/tend-b" },
    { key: "service:c", dir: "/run/s6-rc/servicedirs/tend-c" },
  ];

  it("pins each failure on its service: by its line, or by a missing one", async () => {
    const runner = new RecordingRunner().on("/bin/sh", { stdout: `ok ${targets[0]!.dir}\nfailed 1 ${targets[1]!.dir} s6-svlisten1: fatal: timed out\n` });
    const ctx = await applyContext({ init: "s6", runner });
    const failures = await svcBatch(ctx, ["-u"], targets);
    expect([...failures.keys()]).toEqual(["service:b", "service:c"]);
    expect(String(failures.get("service:b"))).toContain("`s6-svc -u -- /run/s6-rc/servicedirs/tend-b` exited 1: s6-svlisten1: fatal: timed out");
    expect(String(failures.get("service:c"))).toContain("`s6-svc -u -- /run/s6-rc/servicedirs/tend-c` did not finish: s6-svc gave no answer");
    expect(runner.calls).toHaveLength(1);
  });

  it("runs nothing for an empty batch", async () => {
    const ctx = await applyContext({ init: "s6" });
    expect(await svcBatch(ctx, ["-u"], [])).toEqual(new Map());
    expect(ctx.runner.calls).toEqual([]);
  });
});
