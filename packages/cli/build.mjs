// Bundles the tend command into one file, dist/bin.js. @tend/core stays outside it: the CLI, the
// providers and a spec must share core's one copy (TendError, the registry), so it is imported
// from the install like any provider imports it; so is @tend/fleet (only `--hosts` loads it).
import { bundlePackage } from "../../scripts/bundle-package.mjs";

await bundlePackage({
  dir: new URL(".", import.meta.url).pathname,
  entryPoints: { bin: "src/bin.ts" },
  external: ["@tend/core", "@tend/core/*", "@tend/fleet", "@tend/fleet/*"],
});
