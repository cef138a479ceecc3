import { DIRECTORY_MODE, FILE_MODE, type Artifact } from "../contract/artifact.js";
import type { FileAttributes } from "../files/host-files.js";

/** A file (or folder) tend wrote whose mode or owner is not what its artifact asks for: what the host has, and what is wanted. */
export interface AttributeMismatch {
  found: FileAttributes;
  /** An owner only where it is compared (see wantedAttributes). */
  wanted: FileAttributes;
}

/**
 * What an artifact asks of its file beyond its bytes, given the owner it resolves to: its mode
 * always; the owner only where the host reports one (tend can set it there), and then the user
 * only when one is resolved (named, or the scope's user) and the group only when named.
 */
export function wantedAttributes(artifact: Artifact, found: FileAttributes, owner: { uid?: number; gid?: number }): FileAttributes {
  const wanted: FileAttributes = { mode: modeOf(artifact) };
  if (found.uid === undefined) return wanted;
  if (owner.uid !== undefined) wanted.uid = owner.uid;
  if ((artifact.owner || artifact.group) && owner.gid !== undefined) wanted.gid = owner.gid;
  return wanted;
}

/** The mode an artifact asks for: its own, or its store's default. */
export function modeOf(artifact: Pick<Artifact, "mode" | "store">): number {
  return artifact.mode ?? (artifact.store === "directory" ? DIRECTORY_MODE : FILE_MODE);
}

/** Whether `found` differs from `wanted` in anything `wanted` asks for. */
export function attributesDiffer(found: FileAttributes, wanted: FileAttributes): boolean {
  return found.mode !== wanted.mode || (wanted.uid !== undefined && wanted.uid !== found.uid) || (wanted.gid !== undefined && wanted.gid !== found.gid);
}

/** `/etc/app.conf has mode 0666, not 0600 and is owned by uid 0, not 1000`: each difference. */
export function describeMismatch(path: string, { found, wanted }: AttributeMismatch): string {
  const parts: string[] = [];
  if (found.mode !== wanted.mode) parts.push(`has mode ${octal(found.mode)}, not ${octal(wanted.mode)}`);
  if (wanted.uid !== undefined && wanted.uid !== found.uid) parts.push(`is owned by uid ${found.uid}, not ${wanted.uid}`);
  if (wanted.gid !== undefined && wanted.gid !== found.gid) parts.push(`has group gid ${found.gid}, not ${wanted.gid}`);
  return `${path} ${parts.join(" and ")}`;
}

/** `mode 0600, owner www-data, group web`: what an artifact asks of its file beyond its bytes. */
export function attributesText(artifact: Artifact): string {
  const parts = [`mode ${octal(modeOf(artifact))}`];
  if (artifact.owner) parts.push(`owner ${artifact.owner}`);
  if (artifact.group) parts.push(`group ${artifact.group}`);
  return parts.join(", ");
}

/** `0644`: permission bits as chmod takes them. */
export function octal(mode: number): string {
  return mode.toString(8).padStart(4, "0");
}
