import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, expectCleanThenRemove } from "./apply-spec.js";
import { demoStarts } from "./demo-daemon.js";
import { expectRestarted, livePids } from "./exec-forms.js";
import { installKillingStandIn, type KillingStandIn } from "./killing-stand-in.js";
import { doc, spec } from "./spec-documents.js";

const SERVICE = (greeting: string) => doc(`type: Service\nname: preload\nexec: /opt/demo/bin/demo preload\nrestart: always\nenv:\n  GREETING: ${greeting}`);

/** The init's command that makes it load a changed definition: the stand-in's program, the real one, and the load's argument (`reload`, `daemon-reload`). */
export type LoadCommand = Pick<KillingStandIn, "program" | "real" | "word">;

/**
 * An apply killed after it wrote a service's changed definition (`definition`, the file), before
 * the init loaded it, within a second of the service's start, so the /proc check of an older
 * definition cannot tell (the file's time is set to the process's): the next apply resumes the
 * restart the journal kept, has the init load the definition first, and the program it restarts
 * runs the new one. The kill is a stand-in for `load.program` (see killing-stand-in.ts), which
 * kills the apply calling it to load, once, before anything is loaded. Leaves the host as `base`
 * alone declares it.
 */
export async function proveKilledBeforeLoad(host: TestHost, specPath: string, base: string[], load: LoadCommand, definition: string): Promise<void> {
  await applySpec(host, specPath, [...base, SERVICE("one")]);
  const [pid] = await livePids(host, "preload");
  expect(pid).toBeDefined();
  const remove = await installKillingStandIn(host, load);
  try {
    await host.writeFile(specPath, spec(...base, SERVICE("two")));
    const killed = await host.tend(["apply", "-f", specPath]);
    expect(killed.exitCode, killed.stdout + killed.stderr).toBe(137);
    expect(await livePids(host, "preload")).toEqual([pid]);
    expect(await host.readFile(definition)).toContain("two");
    // As if killed within a second of the start: the definition no newer than the process.
    await host.mustSh(`set -- $(cut -d')' -f2- /proc/${pid}/stat); btime=$(awk '/^btime/ {print $2}' /proc/stat); touch -d @$((btime + $20 / $(getconf CLK_TCK))) ${definition}`);
  } finally {
    await remove();
  }
  const plan = await host.expectTend(["plan", "-f", specPath]);
  expect(plan).toContain("  ~ service:preload  restart\n      reason  its definition changed in an earlier apply; restart still pending\n");
  expect(plan).not.toContain("older definition");
  expect(await host.expectTend(["apply", "-f", specPath])).toContain("service:preload: changed, restarted");
  await expectRestarted(host, "preload", pid);
  const [now] = await livePids(host, "preload");
  expect(await demoStarts(host, "preload")).toContain(`start ${now} two`);
  await expectCleanThenRemove(host, specPath, base, "preload");
}
