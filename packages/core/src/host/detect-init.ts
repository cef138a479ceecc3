import type { InitName } from "../contract/host.js";
import type { InitCatalogue } from "../discovery/init-catalogue.js";
import { errors } from "../errors/catalogue.js";
import { imageProbe } from "./image-probe.js";

/** Reads `--init NAME` (case-insensitive): one of the inits the installed providers declare. */
export function parseInit(name: string, inits: InitCatalogue): InitName {
  const lower = name.toLowerCase();
  if (!inits.get(lower)) throw errors.unknownInit(name, inits.names);
  return lower;
}

/**
 * The init this host runs, as the installed providers' declarations recognise it. For an image
 * root, the init its own `/sbin/init` names comes first: a runit image built on a systemd host
 * gets runit's files. An image that names none (an empty folder, an init not installed yet, one
 * no provider declares) is taken to run this host's init, as before.
 */
export function detectInit(inits: InitCatalogue, root?: string): InitName | undefined {
  return (root ? inits.detect(imageProbe(root)) : undefined) ?? inits.detect();
}
