import { MANAGED_HEADER, shellQuote } from "@tend/core/contract";

/**
 * `./log/run`: runsv pipes the service's output into it; svlogd keeps it in `logDir/current`
 * (rotated, with UTC timestamps), which `logs()` reads when a service fails verification.
 */
export function renderLogScript(logDir: string): string {
  const dir = shellQuote(logDir);
  return `#!/bin/sh\n${MANAGED_HEADER}\nmkdir -p -m 750 ${dir}\nexec svlogd -tt ${dir}\n`;
}
