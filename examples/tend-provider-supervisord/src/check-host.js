// @ts-check
import { TendError } from "@tend/core/contract";
import { CONF_DIR, SUPERVISORD_CONF } from "./program-names.js";

/** @typedef {import("@tend/core/contract").ReadContext} ReadContext */

/** supervisord's configuration must be where tend writes and reads it (Debian's `supervisor` package). */
export async function checkHost(/** @type {unknown[]} */ services, /** @type {unknown} */ _observations, /** @type {ReadContext} */ ctx) {
  if (services.length === 0 || (await ctx.files.isDirectory(CONF_DIR))) return [];
  return [
    new TendError("TEND_SUPERVISORD_NO_CONF_DIR", `${CONF_DIR} does not exist, so supervisord (${SUPERVISORD_CONF}) would not read the programs tend writes there`, {
      hint: "Install Debian's supervisor package, whose configuration includes /etc/supervisor/conf.d/*.conf.",
    }),
  ];
}
