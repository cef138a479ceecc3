/** What the host reports for one resource (Datum's observation fields, plus the init's own). */
export interface Observation {
  /** Whether the init knows the unit/service at all. */
  exists: boolean;
  /** From whether the unit is active (not whether a process exists); undefined = unobservable. */
  state?: "running" | "stopped";
  /**
   * Whether it starts at boot. Undefined means unobservable (a static, masked, indirect or
   * generated systemd unit): it is left out of the comparison and never counts as drift.
   */
  enabled?: boolean;
  /** The init's own word for the unit file's state (`enabled`, `static`, `masked`, …). */
  unitFileState?: string;
  /** Whether the unit defines its own reload (systemd `CanReload`, an OpenRC `reload`). */
  canReload?: boolean;
  /** Runtime drift the provider sees beyond files (e.g. a changed default target). */
  drift?: string[];
  /**
   * Things that change what tend owns without being tend's, reported by plan and left alone: a
   * foreign systemd drop-in overriding a unit tend wrote. Unlike drift, apply does not act on them.
   */
  warnings?: string[];
  /**
   * The version installed (a package), recorded in the state after each apply: a later plan that
   * sees another version restarts the services whose `restartOn` lists the resource.
   */
  version?: string;
  /**
   * The pid of the service's main process, as the init reports it (running services only). Core
   * reads `/proc/PID/maps` through it to find a program or library replaced on disk since it
   * started (stale builds): that is drift, and apply restarts the service.
   */
  mainPid?: number;
  /**
   * Loaded-definition drift the provider sees itself (launchd keeps the plist it loaded at
   * bootstrap): the init runs an older definition than tend's files, described. Plan restarts it
   * without rewriting the files, and apply's change says `filesChanged` so the provider loads
   * the definition again. (Core finds it through /proc on Linux for every provider.)
   */
  olderDefinition?: string[];
  /**
   * Boot truth: the provider's prediction of whether the service would be running after a reboot
   * of the host, from what the init would do at boot (enabled, the user manager started at boot,
   * the runsvdir, bundle or runlevel boot brings up). Core compares it with `state`: a service that
   * runs now and would not after a reboot (or the reverse) gets a plan warning naming `why`, never
   * drift. Undefined means the provider cannot tell.
   */
  atBoot?: BootPrediction;
  /** Anything else worth showing in `tend observe` (pid, sub-state, restarts). */
  details?: Record<string, string | number | boolean>;
}

/** Whether a service would be running after a reboot, and why (see Observation.atBoot). */
export interface BootPrediction {
  /** True when the init would start it at boot. */
  starts: boolean;
  /**
   * The reason, in words an admin reads after "would not start after a reboot: " (or "would start
   * after a reboot: "): `it is not enabled`, `alice has no linger, so her manager starts only when
   * she logs in`. Always given when `starts` is false; optional when true.
   */
  why?: string;
}

/** A health reading used by verification: taken before and after the settle window. */
export interface Probe {
  /** Active and not in a restart loop (systemd `auto-restart`, runit `finish`, …). */
  up: boolean;
  /**
   * Changes whenever the process behind the service is replaced: InvocationID + NRestarts on
   * systemd, pid on runit and s6, respawn count on supervise-daemon.
   */
  identity?: string;
  /** One line describing the reading, used in failure messages. */
  detail: string;
}
