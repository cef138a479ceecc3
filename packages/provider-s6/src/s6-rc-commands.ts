import type { Command } from "@tend/core/contract";
import { BUNDLE, CURRENT_DATABASE, LIVE_DIR } from "./s6-layout.js";

/*
 * The s6-rc commands tend runs. Every one takes s6-rc's lock blocking (`-b`): a boot-time
 * `s6-rc change` or another admin's command finishes first instead of failing ours. The live
 * directory is always named, never left to the build's default.
 */

/** Bounds a state change, so s6-rc fails cleanly (exit 2) before the runner has to kill it. */
const CHANGE_TIMEOUT_MS = 60_000;

/** Services s6-rc considers up (its own bookkeeping: see `observeServices`). */
export function listUpCommand(): Command {
  return { argv: ["s6-rc", "-b", "-l", LIVE_DIR, "-a", "list"] };
}

/** Atomic services of the live database. */
export function listLiveServicesCommand(): Command {
  return { argv: ["s6-rc-db", "-b", "-l", LIVE_DIR, "list", "services"] };
}

/** The services of the live database that `s6-rc -d change` of `services` would bring down: they, and all that depend on them. */
export function allDependentsCommand(services: string[]): Command {
  return { argv: ["s6-rc-db", "-b", "-l", LIVE_DIR, "-d", "all-dependencies", ...services] };
}

/** Atomic services of a compiled database that is not live (offline, or before s6-rc-init). */
export function compiledServicesCommand(database: string): Command {
  return { argv: ["s6-rc-db", "-b", "-c", database, "list", "services"] };
}

/**
 * Atomic services in the `tend` bundle of a compiled database (the one boot uses, by default).
 * Exit 3 is a database without a `tend` bundle yet.
 */
export function bundleContentsCommand(database: string = CURRENT_DATABASE): Command {
  return { argv: ["s6-rc-db", "-b", "-c", database, "contents", BUNDLE], okCodes: [0, 3] };
}

/** Brings services (and what they depend on) up or down and waits for it; `--` ends s6-rc's options as s6-rc-update writes it. */
export function changeCommand(direction: "up" | "down", services: string[]): Command {
  return {
    argv: ["s6-rc", "-b", "-l", LIVE_DIR, "-t", String(CHANGE_TIMEOUT_MS), direction === "up" ? "-u" : "-d", "--", "change", ...services],
    timeoutMs: CHANGE_TIMEOUT_MS + 15_000,
  };
}
