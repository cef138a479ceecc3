import type { HostFiles } from "@tend/core/contract";

/** Every runlevel under /etc/runlevels and the services linked into it, from the links alone. */
export async function readRunlevels(files: HostFiles): Promise<Map<string, Set<string>>> {
  const runlevels = new Map<string, Set<string>>();
  for (const runlevel of (await files.readDir("/etc/runlevels")) ?? []) {
    const entries = await files.readDir(`/etc/runlevels/${runlevel}`);
    if (entries) runlevels.set(runlevel, new Set(entries));
  }
  return runlevels;
}

/** The runlevels a service is linked into, in the order given (or every one). */
export function runlevelsOf(runlevels: Map<string, Set<string>>, script: string, among?: readonly string[]): string[] {
  const names = among ?? [...runlevels.keys()];
  return names.filter((runlevel) => runlevels.get(runlevel)?.has(script) ?? false);
}
