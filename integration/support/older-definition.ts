import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, expectCleanThenRemove, planSpec } from "./apply-spec.js";
import { expectRestarted, livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

const SERVICE = doc("type: Service\nname: olddef\nexec: /opt/demo/bin/demo olddef\nrestart: always");

/**
 * Loaded-definition drift on a real init (issue 18 item 5): the file that defines a running
 * service is written again after the service started (here restored from a copy, byte for byte,
 * as a backup restore or an apply killed between write and restart leaves it), so the init runs
 * an older definition than the file. Plan reports it; apply brings the init up to date and
 * restarts the program without rewriting the file; then the plan is clean. `definition` is the
 * file the init's provider renders for the service; `checkInit` asks the init itself afterwards.
 */
export async function proveOlderDefinitionRestart(host: TestHost, specPath: string, base: string[], definition: string, checkInit?: () => Promise<void>): Promise<void> {
  await applySpec(host, specPath, [...base, SERVICE]);
  const [pid] = await livePids(host, "olddef");
  expect(pid).toBeDefined();
  await planSpec(host, specPath, 0);
  const bytes = await host.readFile(definition);
  // /proc/stat's boot time is in whole seconds: a change must be more than a second newer to count
  await host.mustSh(`sleep 2.2 && cp -p ${definition} /var/tmp/olddef.copy && cat /var/tmp/olddef.copy > ${definition} && rm /var/tmp/olddef.copy`);
  expect(await planSpec(host, specPath, 2)).toContain(`  ! service:olddef drifted: running an older definition than ${definition}\n      then  restart\n`);
  const mtime = await host.mustSh(`stat -c %Y ${definition}`);
  expect(await host.expectTend(["apply", "-f", specPath])).toContain("service:olddef: changed, restarted");
  expect(await host.mustSh(`stat -c %Y ${definition}`)).toBe(mtime);
  expect(await host.readFile(definition)).toBe(bytes);
  await expectRestarted(host, "olddef", pid);
  await checkInit?.();
  await expectCleanThenRemove(host, specPath, base, "olddef");
}
