/** The inits tend knows. Display names (for messages) are in INIT_DISPLAY_NAMES. */
export const INITS = ["systemd", "launchd", "runit", "openrc", "dinit", "s6"] as const;
export type InitName = (typeof INITS)[number];

/** How the seed writes each init's name in messages (`this host uses OpenRC`). */
export const INIT_DISPLAY_NAMES: Record<InitName, string> = {
  systemd: "systemd",
  launchd: "launchd",
  runit: "runit",
  openrc: "OpenRC",
  dinit: "dinit",
  s6: "s6",
};

/** Facts about the host a spec can branch on, as fspec's modules do with `host.init`. */
export interface HostFacts {
  /** Host name. */
  name: string;
  /** The init that runs services here (detected, or `--init`). */
  init: InitName;
  os: "linux" | "darwin" | (string & {});
  arch: string;
  /** The user tend acts for: the invoking user, or the one named by `--user NAME` as root. */
  user: string;
  /** That user's home, from the password database (never `$HOME`, which sudo keeps). */
  home: string;
}

/**
 * Which resources a run manages and where their state lives. A system run handles resources
 * without `user: true`; a user run handles those with it, for one user.
 */
export type Scope =
  | { kind: "system" }
  | {
      kind: "user";
      /** The user's login name. */
      user: string;
      uid: number;
      gid: number;
      /** From the password database. */
      home: string;
    };
