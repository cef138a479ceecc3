import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { applySpec, expectCleanThenRemove, planSpec } from "./apply-spec.js";
import { expectRestarted, livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

const CONF = doc("type: File\nname: modes-conf\npath: /etc/modes/modes.conf\ncontent: |\n  level = 3\nmode: \"0640\"");
const SERVICE = doc(
  "type: Service\nname: modes\nexec: /opt/demo/bin/demo modes\nrestart: always\nenv:\n  API_TOKEN: s3cr3t-modes\nrequires:\n  - File[modes-conf]\nrestartOn:\n  - File[modes-conf]",
);

/**
 * A file's mode is compared like its content, on a real init. The service's own definition
 * (`definition`, kept to its owner since its env holds a secret) loosened by hand is drift; apply
 * sets its mode back in place, and the init runs on untouched: same process, same bytes, same
 * modification time (no older-definition drift follows). A File the service restarts on,
 * loosened by hand, is set back too, and the service restarts, as for any change of that File.
 */
export async function proveModeDrift(host: TestHost, specPath: string, base: string[], definition: string): Promise<void> {
  await applySpec(host, specPath, [...base, CONF, SERVICE]);
  const mode = (path: string) => host.mustSh(`stat -c %a ${path}`).then((out) => out.trim());
  const wanted = await mode(definition);
  expect(["600", "700"]).toContain(wanted);
  expect(await mode("/etc/modes/modes.conf")).toBe("640");
  const [pid] = await livePids(host, "modes");
  expect(pid).toBeDefined();
  const mtime = await host.mustSh(`stat -c %Y ${definition}`);
  const bytes = await host.readFile(definition);

  await host.mustSh(`chmod 0644 ${definition}`);
  expect(await planSpec(host, specPath, 2)).toContain(`  ! service:modes drifted: ${definition} has mode 0644, not 0${wanted}\n      then  set the permissions of its files\n`);
  expect(await host.expectTend(["apply", "-f", specPath])).toContain(`service:modes: set ${definition} to mode 0${wanted}`);
  expect(await mode(definition)).toBe(wanted);
  expect([await host.mustSh(`stat -c %Y ${definition}`), await host.readFile(definition)]).toEqual([mtime, bytes]);
  expect(await livePids(host, "modes")).toEqual([pid]);
  await planSpec(host, specPath, 0);

  await host.mustSh("chmod 0666 /etc/modes/modes.conf");
  const plan = await planSpec(host, specPath, 2);
  expect(plan).toContain("  ! file:modes-conf drifted: /etc/modes/modes.conf has mode 0666, not 0640\n");
  expect(plan).toContain("  ~ service:modes  restart\n      reason  file:modes-conf changed, restartOn matched\n");
  await host.expectTend(["apply", "-f", specPath]);
  expect(await mode("/etc/modes/modes.conf")).toBe("640");
  await expectRestarted(host, "modes", pid);
  await expectCleanThenRemove(host, specPath, base, "modes");
}
