/**
 * Where s6-rc keeps things on a host tend manages. The boot script must run
 * `s6-rc-init -c /etc/s6/db/current -l /run/s6-rc SCANDIR` and bring up a bundle that contains
 * the `tend` bundle; tend keeps `current` pointing at the database it compiled last.
 */
export const SOURCE_DIR = "/etc/s6/sv";
export const DATABASE_DIR = "/etc/s6/db";
/** The link s6-rc-init boots on; flipped after every switch. */
export const CURRENT_DATABASE = `${DATABASE_DIR}/current`;
/** s6-rc's live state (s6-rc-init's `-l`, also s6-rc's built-in default). */
export const LIVE_DIR = "/run/s6-rc";
/** The bundle every tend service belongs to (while it is enabled at boot). */
export const BUNDLE = "tend";
export const BUNDLE_DIR = `${SOURCE_DIR}/${BUNDLE}`;

/** The s6-rc service name of a tend service: `tend-<name>`. */
export function serviceName(name: string): string {
  return `tend-${name}`;
}

/** The source definition directory, `/etc/s6/sv/tend-<name>`. */
export function sourceDir(name: string): string {
  return `${SOURCE_DIR}/${serviceName(name)}`;
}

/**
 * The live service directory s6-supervise runs, as s6-rc itself addresses it (it never relies on
 * the scan directory's name, which differs between distributions).
 */
export function liveServiceDir(name: string): string {
  return `${LIVE_DIR}/servicedirs/${serviceName(name)}`;
}

/** A compiled database of generation `n`: `/etc/s6/db/tend-g<n>-a`. */
export function databasePath(generation: number): string {
  return `${DATABASE_DIR}/tend-g${generation}-a`;
}
