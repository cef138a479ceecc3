import type { Command } from "@tend/core/contract";

/** What the host's apt lists offer for one package. */
export interface Offered {
  /** The version `apt-get install NAME` would install; undefined when none. */
  candidate?: string;
  /** Every version in the lists (and the installed one), newest first as apt prints them. */
  versions: string[];
}

/** One `apt-cache policy` for every package. Under `--root` apt reads the root's lists and status. */
export function aptPolicyCommand(names: string[], root?: string): Command {
  return {
    argv: ["apt-cache", ...(root ? ["-o", `Dir=${root.replace(/\/$/, "")}/`] : []), "policy", ...names],
    env: { LC_ALL: "C" },
    timeoutMs: 60_000,
  };
}

/**
 * Parses `apt-cache policy a b c`: a block per package apt knows (`name:` then `Candidate:` and a
 * version table); a package it does not know has no block.
 */
export function parseAptPolicy(stdout: string): Map<string, Offered> {
  const found = new Map<string, Offered>();
  let current: Offered | undefined;
  let inTable = false;
  for (const line of stdout.split("\n")) {
    const head = /^(\S+):$/.exec(line);
    if (head) {
      current = { versions: [] };
      found.set(head[1]!.replace(/:[a-z0-9]+$/, ""), current);
      inTable = false;
      continue;
    }
    if (!current) continue;
    const candidate = /^ {2}Candidate: (\S+)$/.exec(line);
    if (candidate) {
      if (candidate[1] !== "(none)") current.candidate = candidate[1]!;
      continue;
    }
    if (/^ {2}Version table:$/.test(line)) {
      inTable = true;
      continue;
    }
    const version = inTable ? /^ (?:\*\*\*| {3}) (\S+) -?\d+$/.exec(line) : null;
    if (version) current.versions.push(version[1]!);
  }
  return found;
}
