import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describeConformance } from "@tend/testkit";
import provider from "./index.js";

describeConformance({
  provider,
  packageJson: new URL("../package.json", import.meta.url),
  init: "supervisord",
  // Debian's supervisor package makes the folder the programs go in.
  prepareRoot: (root) => mkdir(join(root, "etc/supervisor/conf.d"), { recursive: true }).then(() => undefined),
});
