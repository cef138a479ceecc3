import { procStatFields, type ApplyContext, type HostFiles } from "@tend/core/contract";

/** How long the rest of a stopped service's process group gets to follow dinit's TERM. */
const GRACE_MS = 5_000;
const POLL_MS = 50;

/**
 * Makes sure nothing of the process groups of services just stopped, restarted or removed lives
 * on. dinit starts every service process in a session and process group of its own and stops it
 * by sending its term signal to that whole group (dinit-service(5): unless `signal-process-only`),
 * so a pipeline's other programs get it together with its shell. But dinit waits only for the
 * process it started: a program of the group that outlasts it (slow to exit, or ignoring the
 * signal) would outlive the stop, and dinit's stop-timeout KILL only reaches a group whose first
 * process is still there. So the process table is watched until those groups are empty, and what
 * is left after {@link GRACE_MS} is killed; a group that is already gone costs no command.
 * `groups` maps each group, the pid dinit reported for a service before stopping it (a session
 * leader's pid is its group's id, which cannot be reused while anything is in it), to its
 * service; a failure here is pinned on those services.
 */
export async function endProcessGroups(groups: Map<number, GroupOwner>, ctx: ApplyContext, failures: Map<string, unknown>): Promise<void> {
  try {
    await endGroups(groups, ctx);
  } catch (error) {
    for (const owner of groups.values()) if (!failures.has(owner.key)) failures.set(owner.key, error);
  }
}

/** The service a process group belongs to: its dinit name and its resource key. */
export interface GroupOwner {
  name: string;
  key: string;
}

async function endGroups(groups: Map<number, GroupOwner>, ctx: ApplyContext): Promise<void> {
  let left = await liveGroups(new Set([...groups.keys()].filter((group) => group > 1)), ctx.files);
  for (let waited = 0; left.size > 0 && waited < GRACE_MS; waited += POLL_MS) {
    await ctx.sleep(POLL_MS);
    left = await liveGroups(left, ctx.files);
  }
  if (left.size === 0) return;
  const ids = [...left].sort((a, b) => a - b).map(String);
  await ctx.run.run({
    // dash's `kill` takes a negative pid (a process group) only in this form.
    argv: ["/bin/sh", "-c", 'for group; do kill -KILL "-$group" 2>/dev/null; done; exit 0', "tend-end-groups", ...ids],
    ...(ctx.scope.kind === "user" ? { asUser: { uid: ctx.scope.uid, gid: ctx.scope.gid } } : {}),
    timeoutMs: 15_000,
  });
  for (const id of ids) ctx.log(`${groups.get(Number(id))!.name}: killed what was left of its process group ${id}, ${GRACE_MS / 1000} s after dinit stopped it`);
}

/** Which of `groups` still hold a live process (zombies do not count), from /proc. */
async function liveGroups(groups: Set<number>, files: HostFiles): Promise<Set<number>> {
  const found = new Set<number>();
  if (groups.size === 0) return found;
  for (const entry of (await files.readDir("/proc")) ?? []) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string | null;
    try {
      stat = await files.readFile(`/proc/${entry}/stat`);
    } catch {
      continue; // it ended while being read
    }
    if (stat === null) continue;
    const [state, , group] = procStatFields(stat);
    if (state !== "Z" && groups.has(Number(group))) found.add(Number(group));
  }
  return found;
}
