import { posix } from "node:path";
import type { HostFiles, Scope } from "@tend/core/contract";
import { findDescription } from "./find-description.js";
import { parseServiceDescription } from "./parse-service-description.js";
import { descriptionName } from "./service-paths.js";

/**
 * Where `dinitctl enable NAME` records that NAME starts at boot: a link named NAME in the
 * `waits-for.d` folder of the service it is enabled from (`boot`, or the description's
 * `@meta enable-via`). Mirrors dinitctl's `enable_disable_service`.
 */
export type EnableLink =
  | {
      kind: "link";
      /** The service it is enabled from and its description file. */
      via: string;
      viaFile: string;
      /** The `waits-for.d` folder, absolute, and whether it exists. */
      dir: string;
      dirExists: boolean;
      /** The link, and the target dinitctl would give it. */
      path: string;
      target: string;
    }
  /** The from-service lists NAME itself (`waits-for = NAME`): always enabled, dinitctl cannot change it. */
  | { kind: "fixed"; via: string; viaFile: string }
  | { kind: "no-waits-for-d"; via: string; viaFile: string }
  | { kind: "no-via-service"; via: string };

export async function resolveEnableLink(name: string, scope: Scope, files: HostFiles): Promise<EnableLink> {
  const own = await findDescription(descriptionName(name), scope, files);
  const via = (own && parseServiceDescription(own.text).enableVia) ?? "boot";
  const viaDescription = await findDescription(via, scope, files);
  if (!viaDescription) return { kind: "no-via-service", via };
  const parsed = parseServiceDescription(viaDescription.text);
  if (parsed.dependencies.some((dependency) => dependency.name === name)) return { kind: "fixed", via, viaFile: viaDescription.path };
  const waitsForD = parsed.waitsForD[0];
  if (waitsForD === undefined) return { kind: "no-waits-for-d", via, viaFile: viaDescription.path };
  const dir = posix.resolve(posix.dirname(viaDescription.path), waitsForD);
  const ownPath = own?.path ?? `${posix.dirname(viaDescription.path)}/${descriptionName(name)}`;
  return {
    kind: "link",
    via,
    viaFile: viaDescription.path,
    dir,
    dirExists: await files.isDirectory(dir),
    path: `${dir}/${name}`,
    target: linkTarget(dir, ownPath),
  };
}

/** dinitctl's choice: `../<file>` when the description sits beside the `waits-for.d` folder, else its absolute path. */
function linkTarget(dir: string, descriptionPath: string): string {
  const parentEnd = dir.lastIndexOf("/");
  return descriptionPath.startsWith(dir.slice(0, parentEnd)) && descriptionPath[parentEnd] === "/"
    ? `../${descriptionPath.slice(parentEnd + 1)}`
    : descriptionPath;
}
