/**
 * An init's name (`systemd`, `runit`, `supervisord`): whatever a provider package declares in its
 * manifest. Core knows no init by name.
 */
export type InitName = string;

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
  /** The inventory groups the host is in (a fleet run, `--hosts`); none on a local run. */
  groups?: readonly string[];
  /**
   * Facts about the host besides these: what was detected on it (`distro` and `distroVersion`
   * from its os-release, `kernel`), and on a fleet run the inventory's facts for the host and its
   * groups over them. In an image root (`--root`), the image's os-release and no `kernel`.
   */
  facts?: Readonly<Record<string, unknown>>;
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
