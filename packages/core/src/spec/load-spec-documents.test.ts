import fc from "fast-check";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContentCache } from "../cache/content-cache.js";
import type { HostFacts } from "../contract/host.js";
import { openSpec } from "./load-spec.js";

const HOST: HostFacts = { name: "h", init: "runit", os: "linux", arch: "x64", user: "root", home: "/root" };

/** One YAML document: a service, a file, a comment alone, or an empty document. */
const documentText = fc.oneof(
  fc.record({ name: fc.constantFrom("web", "db", "api", "WEB", "cache"), port: fc.integer({ min: 1, max: 3 }), after: fc.option(fc.constantFrom("db", "web", "nope"), { nil: undefined }), typo: fc.boolean() }).map(
    ({ name, port, after, typo }) => `tend: v1alpha1\ntype: Service\nname: ${name}\n${typo && port === 3 ? "exce" : "exec"}: /opt/${name} --port ${port}\n${after ? `after: [${after}]\n` : ""}`,
  ),
  fc.constantFrom("name", "conf").map((name) => `tend: v1alpha1\ntype: File\nname: ${name}\npath: /etc/${name}.conf\ncontent: |\n  a = 1\n  --- still content\n`),
  fc.constant("# nothing here\n"),
  fc.constant(""),
);
const specText = fc.array(documentText, { minLength: 1, maxLength: 6 }).map((docs) => docs.join("---\n"));

/** What opening and building a spec gives: its resources, or its error's text. */
async function outcome(file: string, cache?: ContentCache): Promise<unknown> {
  try {
    return (await (await openSpec(file, cache ? { cache } : {})).build(HOST)).resources;
  } catch (error) {
    return { error: String((error as Error).message), location: (error as { location?: unknown }).location };
  }
}

describe("a YAML spec validated document by document", () => {
  it("gives what validating the whole text gives, whatever was validated before (property)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tend-docs-"));
    const cache = ContentCache.open({ TEND_CACHE_DIR: join(dir, "cache") })!;
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(specText, { minLength: 1, maxLength: 4 }), async (versions) => {
        // One file edited through several versions: each opened with the cache and without.
        const file = join(dir, `tend-${(n += 1)}.yaml`);
        for (const text of versions) {
          await writeFile(file, text);
          expect(await outcome(file, cache)).toEqual(await outcome(file));
        }
      }),
      { numRuns: 150 },
    );
  });
});
