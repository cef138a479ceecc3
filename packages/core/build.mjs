// Bundles @tend/core into dist/: one bundle of the runtime entry, whose dynamic imports (zod's
// schemas, the YAML parser, the general module resolver, semver) are chunks loaded where used.
// `@tend/core` and `@tend/core/contract` are facades re-exporting from it, so there is one copy of
// every class however a program reaches core (the CLI through `runtime`, providers through
// `contract`, a spec through `.`), and a start loads a few files, not a chunk per set of entries
// sharing code. The user writer runs in a process of its own and the spec's import hooks in a
// thread of their own: each is bundled alone. jiti stays a dependency.
import { bundlePackage } from "../../scripts/bundle-package.mjs";

await bundlePackage({
  dir: new URL(".", import.meta.url).pathname,
  entryPoints: { runtime: "src/runtime.ts" },
  facades: { index: "src/index.ts", "contract/index": "src/contract/index.ts" },
  alone: { "files/user-writer-main": "src/files/user-writer-main.ts", "spec/spec-import-hooks": "src/spec/spec-import-hooks.ts" },
  external: ["jiti"],
  splitting: true,
  buildIdName: "__TEND_CORE_BUILD__",
});
