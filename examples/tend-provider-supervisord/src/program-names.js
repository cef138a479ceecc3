// @ts-check

/** Debian's supervisord configuration, which includes every `*.conf` in {@link CONF_DIR}. */
export const SUPERVISORD_CONF = "/etc/supervisor/supervisord.conf";

/** Where tend writes one program section per service. */
export const CONF_DIR = "/etc/supervisor/conf.d";

/** The program (and group) name supervisord knows a service by: `tend-web`. */
export function programName(/** @type {string} */ name) {
  return `tend-${name}`;
}

/** The file holding a service's program section. */
export function confPath(/** @type {string} */ name) {
  return `${CONF_DIR}/${programName(name)}.conf`;
}
