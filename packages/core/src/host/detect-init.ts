import type { InitName } from "../contract/host.js";
import type { HostProbe, InitCatalogue } from "../discovery/init-catalogue.js";
import { errors } from "../errors/catalogue.js";

/** Reads `--init NAME` (case-insensitive): one of the inits the installed providers declare. */
export function parseInit(name: string, inits: InitCatalogue): InitName {
  const lower = name.toLowerCase();
  if (!inits.get(lower)) throw errors.unknownInit(name, inits.names);
  return lower;
}

/** The init this host runs, as the installed providers' declarations recognise it. */
export function detectInit(inits: InitCatalogue, probe?: HostProbe): InitName | undefined {
  return inits.detect(probe);
}
