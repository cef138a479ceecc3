/**
 * An s6-rc-update conversion file that restarts the given longruns (`tend-web restart`). Without
 * it s6-rc-update copies a changed `run` into the live service directory and leaves the old
 * process running: the new definition would only apply at the next respawn.
 */
export function conversionFile(services: string[]): string {
  return services.map((service) => `${service} restart\n`).join("");
}
