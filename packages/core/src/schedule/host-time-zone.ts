import type { HostFiles } from "../contract/context.js";

/** An IANA zone name: letters, digits and `_+-`, in parts separated by `/`. */
const ZONE = /^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The time zone the host's init and cron keep their schedules in: the zone `/etc/localtime`
 * links to (`…/zoneinfo/Europe/Berlin`, as on Debian and macOS), else the name in
 * `/etc/timezone`. Undefined when neither says (a copied zone file, no file at all).
 */
export async function hostTimeZone(files: HostFiles): Promise<string | undefined> {
  const link = await files.readLink("/etc/localtime").catch(() => null);
  const linked = link === null ? undefined : /\/zoneinfo\/(.+)$/.exec(link)?.[1];
  if (linked && ZONE.test(linked)) return linked.replace(/^(posix|right)\//, "");
  const named = (await files.readFile("/etc/timezone").catch(() => null))?.split("\n")[0]?.trim();
  return named && ZONE.test(named) ? named : undefined;
}
