import { TendError } from "../errors/tend-error.js";
import type { Resource } from "../model/resource-schema.js";
import type { HostFileAccess } from "../host/host-access.js";

/**
 * Why a File cannot be given to its owner or group on this host (one its user database lacks),
 * or undefined: for any other resource, a File that names neither, or one whose both are found.
 */
export function ownerProblem(files: HostFileAccess, resource: Resource): TendError | undefined {
  if (resource.type !== "file" || (resource.owner === undefined && resource.group === undefined)) return undefined;
  return ownershipProblem(files, resource.owner, resource.group);
}

/** Why this host cannot give a file to `owner` and `group` (a name its user database lacks), or undefined. */
export function ownershipProblem(files: HostFileAccess, owner?: string, group?: string): TendError | undefined {
  try {
    files.ownership(owner, group);
    return undefined;
  } catch (error) {
    if (!TendError.isInstance(error)) throw error;
    return error;
  }
}
