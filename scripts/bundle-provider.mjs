// Bundles the provider package in the current folder into dist/index.js (tsc writes only the
// declarations). A provider of thirty modules loaded by Node's ES module loader one by one cost
// ~10 ms of every command's start; one file costs a fraction of that. @tend/core stays outside:
// a provider must share the CLI's one copy of core (TendError, the registry).
import { bundlePackage } from "./bundle-package.mjs";

await bundlePackage({
  dir: process.cwd(),
  entryPoints: { index: "src/index.ts" },
  external: ["@tend/core", "@tend/core/*"],
});
