import type { TestHost } from "@tend/testkit/harness";
import { expect } from "vitest";
import { doc } from "./spec-documents.js";

/**
 * A user service `mine` ordered after the system service `system`: the spec at `path` (`docs`
 * and `mine`, each a YAML document, `spec` joining them) fails plan in the system scope and
 * apply in alice's, with the core's one error naming the resource and field, and `mine`'s
 * file (`userFile`, where the init would read it) is never written.
 */
export async function proveCrossScopeAfterRefused(
  host: TestHost,
  path: string,
  spec: (...docs: string[]) => string,
  docs: string[],
  system: string,
  userFile: string,
): Promise<void> {
  const mine = doc(`type: Service\nname: mine\nuser: true\nexec: /opt/demo/bin/demo mine\nafter: [${system}]`);
  await host.writeFile(path, spec(...docs, mine));
  const output = await host.expectTend(["plan", "-f", path], { exitCode: 1 });
  expect(output).toContain(
    `error TEND_INVALID_FIELD: service:mine has an invalid \`after\`: names service:${system}, a system service, and service:mine is a user service; no init orders services across scopes (a user's manager cannot wait for the system's, nor the other way)`,
  );
  expect(output).toMatch(/at .*service:mine, field after/);
  expect(await host.expectTend(["apply", "-f", path, "--user", "alice"], { exitCode: 1 })).toContain(`names service:${system}, a system service`);
  expect((await host.exec(["test", "-e", userFile])).exitCode).toBe(1);
}
