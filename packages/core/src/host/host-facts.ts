import { hostname, arch, userInfo } from "node:os";
import type { HostFacts, Scope } from "../contract/host.js";
import type { InitCatalogue } from "../discovery/init-catalogue.js";
import { errors } from "../errors/catalogue.js";
import { lookupUser } from "./passwd.js";
import { detectInit, parseInit } from "./detect-init.js";
import { localFacts } from "./local-facts.js";

export interface HostOptions {
  /** `--init NAME`. */
  init?: string;
  /** `--user` (true) or `--user NAME`. */
  user?: boolean | string;
  /** `--root DIR`. */
  root?: string;
}

export interface Host {
  facts: HostFacts;
  scope: Scope;
}

/**
 * The host's facts and the scope of this run: system as root (or under `--root`, where the image
 * root is the target), the user's own otherwise; `--user [NAME]` chooses the user scope.
 */
export function resolveHost(options: HostOptions, inits: InitCatalogue, requireInit = true): Host {
  const init = options.init ? parseInit(options.init, inits) : detectInit(inits, options.root);
  if (!init && requireInit) throw errors.noInit(inits.names);
  const uid = process.getuid?.() ?? 0;
  const self = userInfo();
  let scope: Scope;
  if (typeof options.user === "string") {
    if (uid !== 0 && options.user !== self.username) throw errors.usage(`--user ${options.user} needs root; run it as root or drop the name`);
    const entry = lookupUser(options.user, options.root);
    if (!entry) throw errors.usage(`no user \`${options.user}\` in the password database`, { field: "user" });
    scope = { kind: "user", user: entry.name, uid: entry.uid, gid: entry.gid, home: entry.home };
  } else if (options.user === true || (uid !== 0 && options.root === undefined)) {
    const entry = lookupUser(String(uid));
    scope = { kind: "user", user: self.username, uid, gid: process.getgid?.() ?? self.gid, home: entry?.home ?? self.homedir };
  } else {
    scope = { kind: "system" };
  }
  const facts: HostFacts = {
    name: hostname(),
    init: init ?? "",
    os: process.platform,
    arch: arch(),
    user: scope.kind === "user" ? scope.user : self.username,
    home: scope.kind === "user" ? scope.home : (lookupUser(String(uid))?.home ?? self.homedir),
    groups: [],
    facts: localFacts(options.root),
  };
  return { facts, scope };
}
