import type { Artifact } from "../contract/artifact.js";
import type { ProviderDefinition } from "../contract/provider.js";
import { errors } from "../errors/catalogue.js";
import type { TendError } from "../errors/tend-error.js";
import type { HostFileAccess } from "../host/host-access.js";
import { ownershipProblem } from "./owner-problem.js";

/**
 * The users and groups that providers give their own files (launchd's LaunchDaemon plists are
 * root:wheel) and that this host's user database lacks, such as `wheel` in a Debian image root:
 * apply could not write those files, so plan says so first. One error for each name missing, at
 * the first resource whose file needs it, saying that the provider chose it: the resource has no
 * field to blame. A File's owner and group are the spec's own (ownerProblem names their field).
 * Each name is looked up once, however many files carry it.
 */
export function providerOwnerProblems(rendered: Map<string, Artifact[]>, assigned: Map<string, ProviderDefinition>, files: HostFileAccess): TendError[] {
  const missing = new Map<string, boolean>();
  const found = new Map<string, { kind: "user" | "group"; name: string; key: string; path: string; keys: Set<string> }>();
  for (const [key, artifacts] of rendered) {
    if (key.startsWith("file:")) continue;
    for (const artifact of artifacts) {
      for (const [kind, name] of [["user", artifact.owner], ["group", artifact.group]] as const) {
        if (name === undefined) continue;
        const id = `${kind}:${name}`;
        if (!missing.has(id)) missing.set(id, (kind === "user" ? ownershipProblem(files, name) : ownershipProblem(files, undefined, name)) !== undefined);
        if (!missing.get(id)) continue;
        const first = found.get(id);
        if (first) first.keys.add(key);
        else found.set(id, { kind, name, key, path: artifact.path, keys: new Set([key]) });
      }
    }
  }
  return [...found.values()].map(({ kind, name, key, path, keys }) => {
    const provider = assigned.get(key)?.name ?? "its";
    const more = keys.size - 1;
    const others = more === 0 ? "" : ` (and the files of ${more} more resource${more === 1 ? "" : "s"})`;
    const where = files.root === "/" ? "this host's user database" : `${files.root}/etc/${kind === "user" ? "passwd" : "group"}`;
    return errors.usage(`unknown ${kind} \`${name}\`: the ${provider} provider gives ${path}${others} to it`, {
      resource: key,
      provider,
      hint: `add the ${kind} to ${where}; an image root's users and groups are its own`,
    });
  });
}
