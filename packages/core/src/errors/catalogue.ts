import type { Shortfall } from "../files/room-needed.js";
import { sizeText } from "../output/size-text.js";
import { TendError, type TendErrorOptions } from "./tend-error.js";

function files(count: number): string {
  return `${count} ${count === 1 ? "file" : "files"}`;
}

/**
 * Every error tend raises on purpose, by permanent code. The texts marked "seed" are the
 * Troubleshooting table of the fspec guide, with fspec's names translated to tend's.
 */
export const errors = {
  /** seed: name rule */
  badName: (kind: "service" | "timer" | "file", name: string, o?: TendErrorOptions) =>
    new TendError(
      "TEND_BAD_NAME",
      `${kind} name \`${name}\` may only hold letters, digits and \`_ . - @\`, and must not start with \`.\` or \`-\``,
      { hint: `Rename the ${kind}`, field: "name", ...o },
    ),
  /** seed: an escape hatch used on another init */
  escapeHatch: (ref: string, field: "systemd" | "launchd", keys: string[], init: string, o?: TendErrorOptions) =>
    new TendError(
      "TEND_UNSUPPORTED_FIELD",
      `${ref} sets \`${field}\` (${keys.join(", ")}), which only ${field} supports, and this host uses ${init}`,
      { hint: `Move the field into a part of the spec only ${field} hosts get, for example \`if (host.init === "${field}")\``, field, resource: ref, ...o },
    ),
  /** seed: user service on an init without them */
  noUserServices: (ref: string, init: string, o?: TendErrorOptions) =>
    new TendError("TEND_NO_USER_SERVICES", `${ref} sets user = True, but ${init} has no user services`, {
      hint: "Make it a system service on that host",
      field: "user",
      resource: ref,
      ...o,
    }),
  /** seed: a systemd target in `after` on another init */
  targetAfter: (ref: string, target: string, init: string, o?: TendErrorOptions) =>
    new TendError(
      "TEND_TARGET_AFTER",
      `${ref} orders itself after \`${target}\`, a systemd target, and this host uses ${init}`,
      { hint: "Drop the target on non-systemd hosts", field: "after", resource: ref, ...o },
    ),
  /** seed: a service without exec on an init that cannot enable distro units */
  noDistroUnits: (ref: string, init: string, o?: TendErrorOptions) =>
    new TendError(
      "TEND_NO_DISTRO_UNITS",
      `${ref} has no exec, and enabling a unit the system ships is not supported on ${init}`,
      { hint: "Distro units exist on Linux only; give the service an exec", field: "exec", resource: ref, ...o },
    ),
  /** seed: a field a distro unit cannot take */
  distroUnitField: (ref: string, field: string, o?: TendErrorOptions) =>
    new TendError(
      "TEND_DISTRO_UNIT_FIELD",
      `${ref} has no exec, so it enables the distro's own unit, which takes no ${field}`,
      { hint: "A service without `exec` only takes `name`, `user`, `displayManager`, `desired`, `requires`, `restartOn`, `reloadOn` and `verify`", field, resource: ref, ...o },
    ),
  /** seed: a distro unit whose files are missing */
  distroUnitMissing: (ref: string, path: string, o?: TendErrorOptions) =>
    new TendError("TEND_DISTRO_UNIT_MISSING", `${ref} has no exec, but ${path} does not exist; install the package that ships it`, {
      hint: "Add the package that ships it, and list it in `requires`",
      field: "name",
      resource: ref,
      ...o,
    }),
  /** seed: cron ignores dotted file names */
  timerNameDot: (name: string, o?: TendErrorOptions) =>
    new TendError("TEND_TIMER_NAME", `timer name \`${name}\` holds a \`.\`, which cron ignores in /etc/cron.d file names`, {
      hint: "Rename the timer",
      field: "name",
      resource: `timer:${name}`,
      ...o,
    }),
  /** cron.d names must match run-parts' rules; `.` has the seed's own text above */
  timerNameCron: (name: string, char: string, o?: TendErrorOptions) =>
    new TendError("TEND_TIMER_NAME", `timer name \`${name}\` holds a \`${char}\`, which cron ignores in /etc/cron.d file names`, {
      hint: "Rename the timer: cron reads only names of letters, digits, `_` and `-`",
      field: "name",
      resource: `timer:${name}`,
      ...o,
    }),
  /** seed: dom and dow both restricted */
  scheduleDomDow: (schedule: string, o?: TendErrorOptions) =>
    new TendError(
      "TEND_SCHEDULE_DOM_DOW",
      `schedule \`${schedule}\` restricts both day-of-month and day-of-week; cron runs on either, and no init here can express that`,
      { hint: "Use two timers, or restrict one field", field: "schedule", ...o },
    ),
  /** seed: unsupported @keyword */
  scheduleKeyword: (schedule: string, o?: TendErrorOptions) =>
    new TendError(
      "TEND_SCHEDULE_KEYWORD",
      `schedule \`${schedule}\` is not supported, use @hourly, @daily, @weekly, @monthly or five cron fields`,
      { hint: schedule === "@yearly" || schedule === "@annually" ? "Write `0 0 1 1 *`" : "Write five cron fields", field: "schedule", ...o },
    ),
  /** a malformed schedule field */
  scheduleField: (schedule: string, field: string, why: string, o?: TendErrorOptions) =>
    new TendError("TEND_SCHEDULE_FIELD", `schedule \`${schedule}\` has a bad ${field} field: ${why}`, {
      hint: "Fields take numbers, `*`, ranges (`1-5`), lists (`1,15`), steps (`*/10`, `0-30/5`) and month and day names",
      field: "schedule",
      ...o,
    }),
  /** seed: launchd cap */
  launchdEntries: (count: number, o?: TendErrorOptions) =>
    new TendError("TEND_LAUNCHD_ENTRIES", `schedule expands to ${count} launchd calendar entries, more than the 64 tend writes`, {
      hint: 'Simplify the schedule, or use `launchd: { StartInterval: ... }`',
      field: "schedule",
      ...o,
    }),
  invalidField: (ref: string, field: string, why: string, o?: TendErrorOptions) =>
    new TendError("TEND_INVALID_FIELD", `${ref} has an invalid \`${field}\`: ${why}`, { field, resource: ref, ...o }),
  duplicate: (ref: string, what: string, o?: TendErrorOptions) =>
    new TendError("TEND_DUPLICATE", `${ref} ${what}`, { resource: ref, hint: "Rename one of them", ...o }),
  cycle: (path: string[], o?: TendErrorOptions) =>
    new TendError("TEND_CYCLE", `resources depend on each other in a cycle: ${path.join(" -> ")}`, {
      hint: "Remove one of the requires, restartOn, reloadOn or after entries in the cycle",
      resource: path[0],
      ...o,
    }),
  unknownReference: (ref: string, field: string, target: string, o?: TendErrorOptions) =>
    new TendError("TEND_UNKNOWN_REFERENCE", `${ref} lists \`${target}\` in ${field}, but the spec declares no such resource`, {
      field,
      resource: ref,
      hint: "Declare that resource or drop the reference",
      ...o,
    }),
  restartAndReload: (ref: string, target: string, o?: TendErrorOptions) =>
    new TendError("TEND_RESTART_AND_RELOAD", `${ref} lists ${target} in both restartOn and reloadOn`, {
      field: "reloadOn",
      resource: ref,
      hint: "Keep it in one of the two: a change either restarts or reloads the service",
      ...o,
    }),
  cannotReload: (ref: string, init: string, o?: TendErrorOptions) =>
    new TendError("TEND_CANNOT_RELOAD", `${ref} lists resources in reloadOn, but it cannot reload on ${init}`, {
      field: "reloadOn",
      resource: ref,
      hint: "Set `reloadSignal` (the signal the program reloads on), or use restartOn",
      ...o,
    }),
  unitMissing: (ref: string, unit: string, o?: TendErrorOptions) =>
    new TendError("TEND_UNIT_MISSING", `${ref} has no exec, but the init knows no unit \`${unit}\`; tend never creates one`, {
      resource: ref,
      hint: "The usual cause is a missing `requires` on the package or file that provides the unit",
      ...o,
    }),
  providerMissing: (what: string, pkg: string, o?: TendErrorOptions) =>
    new TendError("TEND_PROVIDER_MISSING", `${what} needs the provider ${pkg}, which is not installed`, {
      hint: `Install it: npm install --global ${pkg}`,
      ...o,
    }),
  providerIncompatible: (pkg: string, found: unknown, o?: TendErrorOptions) =>
    new TendError("TEND_PROVIDER_INCOMPATIBLE", `provider ${pkg} implements contract apiVersion ${String(found)}, and this tend speaks apiVersion 1`, {
      hint: `Install a version of ${pkg} built for this @tend/core`,
      ...o,
    }),
  conflict: (ref: string, path: string, o?: TendErrorOptions) =>
    new TendError("TEND_UNMANAGED_FILE", `${ref} would write ${path}, which tend did not write`, {
      hint: "Move the file away, or run apply with --adopt to take it over (a backup is kept)",
      resource: ref,
      ...o,
    }),
  editedDeletion: (ref: string, path: string, o?: TendErrorOptions) =>
    new TendError("TEND_UNMANAGED_FILE", `${ref} would delete ${path}, which was edited since tend wrote it`, {
      hint: "Keep what you need from it, or run apply with --adopt to delete it (a backup is kept)",
      resource: ref,
      ...o,
    }),
  changedMeanwhile: (path: string, action: "overwrite" | "delete" | "change the mode of", o?: TendErrorOptions) =>
    new TendError("TEND_UNMANAGED_FILE", `did not ${action} ${path}: it changed after this apply read it`, {
      hint: "Run apply again: its plan shows what changed (anything it then replaces is kept under backups/)",
      ...o,
    }),
  locked: (path: string, holder: string, o?: TendErrorOptions) =>
    new TendError("TEND_LOCKED", `another tend apply holds the lock ${path} (${holder})`, {
      hint: "Wait for it to finish, or pass --lock-timeout SECONDS to wait",
      ...o,
    }),
  commandFailed: (argv: readonly string[], exitCode: number | undefined, detail: string, o?: TendErrorOptions) =>
    new TendError(
      "TEND_COMMAND_FAILED",
      `\`${argv.join(" ")}\` ${exitCode === undefined ? "did not finish" : `exited ${exitCode}`}${detail ? `: ${detail}` : ""}`,
      o,
    ),
  verifyFailed: (ref: string, why: string, o?: TendErrorOptions) =>
    new TendError("TEND_VERIFY_FAILED", `${ref} did not verify: ${why}`, { resource: ref, ...o }),
  /** `action` is what tend was about to do there: a read is refused as a read, not as a write. */
  /**
   * `refusing to write PATH: WHY`; `o.action` names another verb (`use`, `change the mode of`).
   * The fourth argument, the same verb, is kept for providers written before `o.action`.
   */
  unsafePath: (path: string, why: string, { action, ...o }: TendErrorOptions & { action?: string } = {}, verb = action ?? "write") =>
    new TendError("TEND_UNSAFE_PATH", `refusing to ${verb} ${path}: ${why}`, o),
  spec: (message: string, o?: TendErrorOptions) => new TendError("TEND_SPEC", message, o),
  usage: (message: string, o?: TendErrorOptions) => new TendError("TEND_USAGE", message, o),
  unknownInit: (init: string, known: string[], o?: TendErrorOptions) =>
    new TendError("TEND_UNKNOWN_INIT", `unknown init \`${init}\`: no installed provider declares it`, {
      hint: known.length > 0 ? `Use one of ${known.join(", ")}, or install the provider for ${init}` : `No provider is installed; install the one for ${init} (tend providers lists what tend found)`,
      ...o,
    }),
  noInit: (known: string[], o?: TendErrorOptions) =>
    new TendError("TEND_NO_INIT", "could not tell which init this host runs", {
      hint: known.length > 0 ? `Pass --init NAME (${known.join(", ")}), or install the provider for this host's init` : "No provider is installed: install the one for this host's init, then run again",
      ...o,
    }),
} as const;

/** Errors added after the seed's table, kept in a second object so the seed's stay together. */
export const moreErrors = {
  unsupportedField: (ref: string, field: string, init: string, o?: TendErrorOptions) =>
    new TendError("TEND_UNSUPPORTED_FIELD", `${ref} sets \`${field}\`, which ${init} cannot express`, {
      hint: `Set it only on hosts whose init supports it, for example inside \`if (host.init === "systemd")\``,
      field,
      resource: ref,
      ...o,
    }),
  noUserTimers: (ref: string, init: string, o?: TendErrorOptions) =>
    new TendError("TEND_NO_USER_SERVICES", `${ref} sets user = True, but ${init} has no user timers`, {
      hint: "Make it a system timer on that host",
      field: "user",
      resource: ref,
      ...o,
    }),
  noRoom: (short: Shortfall, o?: TendErrorOptions) =>
    new TendError(
      "TEND_DISK_FULL",
      `apply needs ${sizeText(short.needBytes)} and ${files(short.needFiles)} on the file system holding ${short.path}, which has ${sizeText(short.freeBytes)}${short.freeFiles === null ? "" : ` and ${files(short.freeFiles)}`} free; nothing was changed`,
      { hint: "Free space on that file system, then run apply again", ...o },
    ),
  diskFull: (verb: string, path: string, o?: TendErrorOptions) =>
    new TendError("TEND_DISK_FULL", `cannot ${verb} ${path}: no space left on its device`, {
      hint: "Free space on that device, then run apply again: every write is atomic, so nothing was left half-written",
      ...o,
    }),
  readOnly: (verb: string, path: string, o?: TendErrorOptions) =>
    new TendError("TEND_READ_ONLY", `cannot ${verb} ${path}: its file system is read-only`, {
      hint: "Remount it read-write (or apply into an image root with --root DIR), then run apply again",
      ...o,
    }),
  permission: (verb: string, path: string, o?: TendErrorOptions) =>
    new TendError("TEND_PERMISSION", `cannot ${verb} ${path}: permission denied`, {
      hint: "The system scope needs root (sudo tend …); your own services need --user",
      ...o,
    }),
  io: (verb: string, path: string, detail: string, o?: TendErrorOptions) =>
    new TendError("TEND_IO", `cannot ${verb} ${path}: ${detail}`, {
      hint: "Check the device and the path, then run apply again",
      ...o,
    }),
  stateDamaged: (path: string, why: string, o?: TendErrorOptions) =>
    new TendError("TEND_STATE_DAMAGED", `the state file ${path} is damaged: ${why}`, {
      hint: "Restore it from a backup. Or move it away and run plan: files tend wrote carry its header and are listed as orphans, which apply --adopt takes back",
      ...o,
    }),
  stateTooNew: (path: string, why: string, o?: TendErrorOptions) =>
    new TendError("TEND_STATE_DAMAGED", `the state file ${path} cannot be read: ${why}`, {
      hint: "Run the tend that wrote it, or a newer one; an older tend would lose what the newer one recorded",
      ...o,
    }),
  orphan: (ref: string, path: string, o?: TendErrorOptions) =>
    new TendError("TEND_UNMANAGED_FILE", `${ref} would write ${path}, which carries tend's header but which no state records`, {
      hint: "tend wrote it and lost track of it (a lost or moved state): run apply with --adopt to take it back",
      resource: ref,
      ...o,
    }),
  interrupted: (signal: string, step: string, o?: TendErrorOptions) =>
    new TendError("TEND_INTERRUPTED", `apply stopped by ${signal} after ${step}`, {
      hint: "Run apply again to finish: the state records every step taken, and the rest is planned anew",
      ...o,
    }),
  specTimeout: (file: string, seconds: number, o?: TendErrorOptions) =>
    new TendError("TEND_SPEC_TIMEOUT", `${file} did not produce its resources within ${seconds} s`, {
      hint: "A spec must settle: look for a promise that never resolves (set TEND_SPEC_TIMEOUT=SECONDS for a slow one)",
      file,
      ...o,
    }),
  providerCoreRange: (pkg: string, version: string, range: string, core: string, o?: TendErrorOptions) =>
    new TendError("TEND_PROVIDER_INCOMPATIBLE", `provider ${pkg}@${version} needs @tend/core ${range}, and this tend runs @tend/core ${core}`, {
      hint: `Install a version of ${pkg} made for @tend/core ${core}, or a tend whose core it supports`,
      ...o,
    }),
  providerManifestMismatch: (pkg: string, why: string, o?: TendErrorOptions) =>
    new TendError("TEND_PROVIDER_INCOMPATIBLE", `provider ${pkg} says two different things: ${why}`, {
      hint: `Its package.json's "tend": { "provider": ... } must describe what its defineProvider() serves; report it to the provider's author`,
      ...o,
    }),
  providerUntrusted: (pkg: string, why: string, o?: TendErrorOptions) =>
    new TendError("TEND_PROVIDER_UNTRUSTED", `refusing to load provider ${pkg} as root: ${why}`, {
      hint: "Install providers where only root can write (tend's own install, or a root-owned project), or run tend without root for your own services",
      ...o,
    }),
  noProvider: (ref: string, init: string, o?: TendErrorOptions) =>
    new TendError("TEND_NO_PROVIDER", `no installed provider runs ${ref.split(":")[0]}s on ${init}`, { resource: ref, ...o }),
} as const;
