import type { HostFileAccess } from "../host/host-access.js";
import { dependenciesOf } from "../model/dependencies-of.js";
import type { PlanEntry } from "../plan/plan-types.js";

/**
 * A File of a later install stage (it waits for its owner, a user its package makes:
 * postgresql's `postgres`) finds at its path, empty when the plan looked, the copy that package
 * installed in this apply's first stage. That copy is the package's default, not an admin's:
 * tend writes over it as planned, keeping it under backups/ as it keeps an adopted file's, and
 * says which package installed it. Anything at the path of a File that requires no package this
 * apply installed is left as it is, and its resource fails, as any file that appeared meanwhile.
 * `installed` holds the package keys (`package:postgresql`) this apply installed or changed.
 */
export async function takeOverPackageCopies(files: HostFileAccess, stage: readonly PlanEntry[], installed: ReadonlySet<string>): Promise<void> {
  const found: { write: PlanEntry["writes"][number]; by: string }[] = [];
  for (const entry of stage) {
    if (entry.resource.type !== "file") continue;
    const by = dependenciesOf(entry.resource).find((dep) => installed.has(dep));
    if (!by) continue;
    for (const write of entry.writes) {
      if (write.why === "new" && write.current === null && write.content !== null && (write.artifact.store ?? "file") === "file") found.push({ write, by });
    }
  }
  if (found.length === 0) return;
  const there = await files.inspectAll(found.map(({ write }) => write.artifact.path));
  found.forEach(({ write, by }, index) => {
    const now = there[index]!;
    if (now.kind !== "file") return;
    write.current = now.content;
    if (now.bytes) write.currentBytes = now.bytes;
    write.why = "adopted";
    write.installedBy = by.slice("package:".length);
  });
}
