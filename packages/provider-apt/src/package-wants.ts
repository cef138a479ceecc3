import type { Package } from "@tend/core/contract";
import type { Offered } from "./apt-policy.js";
import type { Installed } from "./dpkg-query.js";

/** What apt must do for one package, from what dpkg has and what the lists offer. */
export type Want =
  | { kind: "ok" }
  | { kind: "install"; arg: string; expect: string | undefined; why: string }
  | { kind: "remove"; why: string };

/**
 * present: installed, any version (the candidate when missing); `version`: exactly that one
 * (`name=version`); latest: the candidate; absent: not installed (removed, config files kept).
 */
export function wantOf(pkg: Package, installed: Installed | undefined, offered: Offered | undefined): Want {
  const have = installed?.installed ? installed.version : undefined;
  const state = pkg.state ?? "present";
  if (state === "absent") return have !== undefined ? { kind: "remove", why: `installed ${have}, want absent` } : { kind: "ok" };
  if (pkg.version !== undefined) {
    if (have === pkg.version) return { kind: "ok" };
    return { kind: "install", arg: `${pkg.name}=${pkg.version}`, expect: pkg.version, why: have === undefined ? `not installed, want ${pkg.version}` : `installed ${have}, want ${pkg.version}` };
  }
  if (have === undefined) return { kind: "install", arg: pkg.name, expect: offered?.candidate, why: installed?.version ? `${installed.version} is not fully installed (${installed.status})` : "not installed" };
  if (state === "latest" && offered?.candidate !== undefined && offered.candidate !== have) {
    return { kind: "install", arg: pkg.name, expect: offered.candidate, why: `installed ${have}, the lists offer ${offered.candidate}` };
  }
  return { kind: "ok" };
}
