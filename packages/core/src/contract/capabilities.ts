/**
 * What a provider can express, as data. The core checks only the fields a spec actually uses
 * and, for one the provider cannot express, fails `plan` with the seed's message naming the
 * field; it never drops a setting. A capability left out counts as unsupported.
 */
export interface Capabilities {
  service?: {
    /** `user: true` (user services). */
    userServices?: boolean;
    /** Services without `exec`, enabling a unit the distro ships. */
    distroUnits?: boolean;
    /**
     * What `after` may name: `"targets"`, other services, `"network"` and `*.target` units;
     * `"services"`, other services and `"network"` (a `*.target` fails plan); `"ignored"`, anything,
     * accepted and without effect (an init with no ordering between jobs). Left out, any `after` fails plan.
     */
    after?: "targets" | "services" | "ignored";
    /** Which escape hatch the provider reads: `systemd = {...}` or `launchd = {...}`. */
    escapeHatch?: "systemd" | "launchd";
    /** `displayManager: true`. */
    displayManager?: boolean;
    /** `reloadSignal`: the provider can deliver a signal to a service it wrote. */
    reloadSignal?: boolean;
    /**
     * Whether the init, restarting a service, also restarts the running services that come
     * after it (and theirs in turn), `after` being a hard dependency there: `"always"`, on every
     * restart (dinit's `restart --force`); `"definition"`, on a restart for a changed definition
     * (s6-rc-update). Plan names those services with the restart, and apply verifies them. Left
     * out, a restart restarts the service alone.
     */
    dependentsRestart?: "always" | "definition";
  };
  timer?: {
    /** `user: true` timers. */
    userTimers?: boolean;
    /**
     * What the timers do on a day a clock change skips the time they run at (the change to
     * summer time): `"skip"`, no run that day (systemd); `"run-after"`, a run right after the
     * jump (cron(8) on Debian, cronie). Plan warns of such a day either way; left out, its
     * warning says the init's behaviour is not known.
     */
    skippedTimes?: "skip" | "run-after";
  };
}
