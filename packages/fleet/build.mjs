// Bundles @tend/fleet into dist/index.js (tsc writes only the declarations): zod and yaml load as
// part of one file instead of a hundred modules. @tend/core stays outside, so fleet, the CLI and the
// providers share its one copy; zod stays a dependency for the declarations that name its types.
import { bundlePackage } from "../../scripts/bundle-package.mjs";

await bundlePackage({
  dir: new URL(".", import.meta.url).pathname,
  entryPoints: { index: "src/index.ts" },
  external: ["@tend/core", "@tend/core/*"],
});
