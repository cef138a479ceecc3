import type { HostFacts, InitName, Scope } from "./host.js";
import type { Runner } from "./runner.js";

/** What pure hooks (`render`, `check`) may know: facts, never the host itself. */
export interface RenderContext {
  host: HostFacts;
  init: InitName;
  scope: Scope;
}

/**
 * Read-only access to the host's files, by host path; under `--root DIR` every path is mapped
 * into DIR. Nothing here follows a symlink unless it says so.
 */
export interface HostFiles {
  /**
   * True when these are the files of the host tend runs on, where its init runs (not an image
   * root, not a fleet host's read over ssh): a provider may then read `real(path)` itself with
   * node:fs, for what these methods cannot say (whether a FIFO has a reader, a binary status
   * file). Absent or false: only through these methods.
   */
  readonly local?: boolean;
  /** The real path on this machine for a host path (inside `--root` when given). */
  real(path: string): string;
  /** lstat-based: true for a dangling symlink too. */
  exists(path: string): Promise<boolean>;
  isDirectory(path: string): Promise<boolean>;
  readFile(path: string): Promise<string | null>;
  readLink(path: string): Promise<string | null>;
  readDir(path: string): Promise<string[] | null>;
  /**
   * When a file was last modified (ms since the epoch; whole seconds on a fleet host), never
   * following a link there: a link's own time is when it was made. Null when absent. Optional: a
   * provider's own host files may leave it out.
   */
  modifiedAt?(path: string): Promise<number | null>;
}

/** Writing, for the few things a provider maintains besides its artifacts. */
export interface HostFileWriter extends HostFiles {
  /** Atomic: temp file in the same folder, owner and mode set, fsync, rename, fsync the folder. */
  writeFile(path: string, content: string, options?: { mode?: number; owner?: string; group?: string }): Promise<void>;
  symlink(path: string, target: string): Promise<void>;
  remove(path: string): Promise<void>;
  mkdir(path: string, options?: { mode?: number; owner?: string; group?: string }): Promise<void>;
}

/** For `observe`, `probe`, `logs` and host checks: may run read-only commands. */
export interface ReadContext extends RenderContext {
  run: Runner;
  files: HostFiles;
  /** `--root DIR` when applying into an image root; observation must then work offline. */
  root?: string;
  /** The provider's state bag, to read while observing (only apply changes it). */
  state?: ProviderState;
  /**
   * Why the host is observed: for a plan (the default), which uses all an observation holds; or
   * to check an apply's result against the spec, which reads only `exists`, `state` and
   * `enabled`, so a provider may leave out what costs extra queries (main pids, warnings).
   */
  purpose?: "plan" | "check";
}

/** A small JSON bag the provider keeps in the state file (e.g. s6's database generation). */
export interface ProviderState {
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

export interface ApplyContext extends ReadContext {
  files: HostFileWriter;
  /** True under `--root`: write and enable offline, start nothing, verify nothing. */
  offline: boolean;
  state: ProviderState;
  /** A line for the apply log (`service:web: restarted`). */
  log(line: string): void;
  sleep(ms: number): Promise<void>;
}

/** What a provider's own artifact store may use. */
export type StoreContext = ApplyContext;
