import { createAptProvider } from "./apt-provider.js";

export { createAptProvider, type AptProviderOptions } from "./apt-provider.js";
export { aptGetCommand, applyPackages, type AptOptions } from "./apply-packages.js";
export { dpkgQueryCommand, parseDpkgQuery, type Installed } from "./dpkg-query.js";
export { aptPolicyCommand, parseAptPolicy, type Offered } from "./apt-policy.js";
export { wantOf, type Want } from "./package-wants.js";
export { aptErrors } from "./apt-errors.js";

/** The apt provider, found by discovery through this package's `tend` marker. */
export default createAptProvider();
