import type { BootPrediction, HostFiles } from "@tend/core/contract";
import { BUNDLE, CURRENT_DATABASE, SOURCE_DIR } from "./s6-layout.js";

/** The conventional bundle a boot script brings up (`s6-rc -u change default`). */
const DEFAULT_BUNDLE = "default";

/**
 * Whether the host's `default` bundle contains the `tend` bundle, from its source definition
 * (`contents.d/`, or the older `contents` file); undefined when the host has no such bundle, as a
 * boot script that brings up `tend` itself does.
 */
export async function defaultBundleHoldsTend(files: HostFiles): Promise<boolean | undefined> {
  const dir = `${SOURCE_DIR}/${DEFAULT_BUNDLE}`;
  if ((await files.readFile(`${dir}/type`))?.trim() !== "bundle") return undefined;
  if (await files.exists(`${dir}/contents.d/${BUNDLE}`)) return true;
  const contents = await files.readFile(`${dir}/contents`);
  return contents !== null && contents.split("\n").some((line) => line.trim() === BUNDLE);
}

/**
 * Boot truth on s6-rc: boot brings up the bundle the host's boot script names, which must contain
 * `tend` (see the README), so a service starts at boot when it is in the `tend` bundle of the
 * database boot uses, and the host's `default` bundle, where there is one, contains `tend`.
 */
export function predictBoot(inBundle: boolean, defaultHoldsTend: boolean | undefined): BootPrediction {
  if (!inBundle) return { starts: false, why: `it is not in the ${BUNDLE} bundle of ${CURRENT_DATABASE}, the database boot uses` };
  if (defaultHoldsTend === false) return { starts: false, why: `the ${DEFAULT_BUNDLE} bundle, which boot brings up, does not contain the ${BUNDLE} bundle` };
  return { starts: true };
}
