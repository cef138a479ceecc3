// Bundles @tend/core into dist/: its entries share chunks, so there is one copy of every class
// however a program reaches core (the CLI through `runtime`, providers through `contract`, a spec
// through `.`). zod, yaml and execa are bundled and load only where used; jiti stays a dependency.
import { bundlePackage } from "../../scripts/bundle-package.mjs";

await bundlePackage({
  dir: new URL(".", import.meta.url).pathname,
  entryPoints: {
    index: "src/index.ts",
    runtime: "src/runtime.ts",
    "contract/index": "src/contract/index.ts",
    "files/user-writer-main": "src/files/user-writer-main.ts",
  },
  external: ["jiti"],
  splitting: true,
  buildIdName: "__TEND_CORE_BUILD__",
});
