import { join } from "node:path";
import type { Scope } from "../contract/host.js";
import { moreErrors } from "../errors/catalogue.js";
import type { PathContent } from "../files/host-files.js";
import type { HostFileAccess } from "../host/host-access.js";
import { parseRecord, parseState, StateShapeError, StateTooNewError } from "./parse-state.js";
import { stateJsonPieces } from "./state-json-pieces.js";
import { emptyState, type RecordedResource, type StateFile } from "./state-file.js";
import type { Resource } from "../model/resource-schema.js";
import { contentHash } from "../plan/content-hash.js";

/** Where a scope's state lives (host paths; `--root` maps them inside the root). */
export function stateDir(scope: Scope): string {
  if (scope.kind === "system") return "/var/lib/tend";
  const own = process.getuid?.() === scope.uid;
  const xdg = own ? process.env.XDG_STATE_HOME : undefined;
  return xdg && xdg.startsWith("/") ? join(xdg, "tend") : join(scope.home, ".local/state/tend");
}

type JournalLine =
  | { t: "begin"; serial: number }
  | { t: "set"; key: string; record: RecordedResource }
  | { t: "drop"; key: string }
  | { t: "providers"; providers: StateFile["providers"] };

/**
 * The state of one scope: `state.json`, plus `state.journal`, an append-only log of what an
 * apply intends and confirms, written and synced before the step it describes. Loading replays
 * the journal over the file, so an apply killed at any point leaves nothing it wrote unrecorded;
 * a finished apply folds the journal back into the file. Cost is linear: each resource's record
 * is appended when it changes, and the file is rewritten once per apply.
 */
export class StateStore {
  readonly path: string;
  readonly journalPath: string;
  /** Entries of the state that cannot be trusted, left out when loading: plan reports them. */
  problems: string[] = [];
  /**
   * What changed since the last flush: each resource's record as set (null: dropped), serialised
   * only when flushed. A record is never changed in place once set (every change is a new record
   * through `set`), so what is flushed is what was set; and a resource set three times between
   * two flushes is written once, at its last value, which is what replaying all three would give.
   */
  private changed = new Map<string, RecordedResource | null>();
  /** The providers' bags as last noted, serialised when noted (providers change their bags in place). */
  private providersLine: string | undefined;
  private journalOnDisk = false;
  /**
   * Whether the journal on disk must be folded before anything is appended to it: one already
   * folded into state.json (a save killed before it removed the journal), whose records a replay
   * skips as older than the state; one that ends in a cut-short line (a killed or unsynced
   * append), which a new line would be glued to; or an empty one, which has no `begin`. Appended
   * to, each would lose this apply's records, or all of the state, at the next load.
   */
  private journalSpent = false;

  /**
   * `home`: a user scope's home. Its state is the user's to write, and an entry that records a
   * path outside it is left out (see parseState).
   */
  constructor(
    private readonly files: HostFileAccess,
    readonly dir: string,
    private readonly home?: string,
  ) {
    this.path = join(dir, "state.json");
    this.journalPath = join(dir, "state.journal");
  }

  async load(): Promise<StateFile> {
    const where = this.files.real(this.path);
    // Both at once (one round trip on a remote host). A journal is replayed only onto the serial it
    // names, so one read before a concurrent save and the other after it cannot mix two states.
    const [found, journalFound] = await this.files.inspectAll([this.path, this.journalPath]);
    const text = fileText(found!, where);
    const journal = fileText(journalFound!, this.files.real(this.journalPath));
    let state = emptyState();
    this.problems = [];
    if (text !== null) {
      try {
        const parsed = parseState(text, this.home);
        state = parsed.state;
        this.problems.push(...parsed.problems);
      } catch (error) {
        if (error instanceof StateTooNewError) throw moreErrors.stateTooNew(where, error.message);
        if (error instanceof StateShapeError) throw moreErrors.stateDamaged(where, error.message);
        throw error;
      }
    }
    this.journalOnDisk = journal !== null;
    this.forgetChanges();
    this.journalSpent = journal !== null && !this.replay(state, journal);
    return state;
  }

  /** Replays the journal onto `state`; false when it must not be appended to (see journalSpent). */
  private replay(state: StateFile, journal: string): boolean {
    const where = this.files.real(this.journalPath);
    const lines = journal.split("\n");
    for (const [index, text] of lines.entries()) {
      if (text === "") continue;
      let line: JournalLine;
      try {
        line = JSON.parse(text) as JournalLine;
      } catch {
        // The last append was cut short: by a kill inside a big write, or by a power cut before
        // its sync, which can also leave blocks of it unwritten, read back as NULs, with lines
        // of the same append after them. Every earlier append was synced before the next began,
        // so what is lost is that one append's, which, like a kill before it, the next run's
        // plan recovers (the steps it confirms were recorded as intended before they were taken).
        if (text.includes("\0") || lines.slice(index + 1).every((rest) => rest === "")) return false;
        throw moreErrors.stateDamaged(where, `line ${index + 1} is not JSON`);
      }
      if (typeof line !== "object" || line === null) throw moreErrors.stateDamaged(where, `line ${index + 1} is not a journal entry`);
      if (index === 0) {
        if (line.t !== "begin" || typeof line.serial !== "number") throw moreErrors.stateDamaged(where, "it does not start with the serial it applies to");
        if (line.serial !== state.serial) return false; // folded into state.json already; removed at the next save
        continue;
      }
      if (line.t === "set" && typeof line.key === "string") {
        const record = parseRecord(line.key, line.record, this.problems, this.home);
        if (record) state.resources[line.key] = record;
      } else if (line.t === "drop" && typeof line.key === "string") {
        delete state.resources[line.key];
      } else if (line.t === "providers" && typeof line.providers === "object" && line.providers !== null) {
        state.providers = line.providers;
      } else {
        throw moreErrors.stateDamaged(where, `line ${index + 1} is not a journal entry`);
      }
    }
    // An empty journal (made, its first append killed before the write) has no `begin` to follow.
    return lines[0] !== "";
  }

  /** Whether the file on disk lags: a journal to fold in, or entries left out that a save drops. */
  get unsaved(): boolean {
    return this.journalOnDisk || this.problems.length > 0;
  }

  /** Records a resource's record (in memory now, in the journal at the next `flush`). */
  set(state: StateFile, key: string, record: RecordedResource): void {
    const kept = { ...record, resource: recordable(record.resource) };
    state.resources[key] = kept;
    this.changed.set(key, kept);
  }

  /** Forgets a resource (in memory now, in the journal at the next `flush`). */
  drop(state: StateFile, key: string): void {
    delete state.resources[key];
    this.changed.set(key, null);
  }

  /** Records the providers' bags. */
  noteProviders(state: StateFile): void {
    this.providersLine = journalLine({ t: "providers", providers: state.providers });
  }

  /**
   * Appends what was recorded since the last flush to the journal, synced: one write, its lines
   * serialised as they are written, so a big apply never holds its journal entry as one string.
   */
  async flush(state: StateFile): Promise<void> {
    if (this.changed.size === 0 && this.providersLine === undefined) return;
    // A spent journal is folded first (its records and these, atomically), then started afresh.
    if (this.journalSpent) return this.save(state);
    const begin = this.journalOnDisk ? undefined : journalLine({ t: "begin", serial: state.serial });
    await this.files.perform([{ op: "append", path: this.journalPath, content: () => this.journalLines(begin), mode: 0o600 }]).then(throwFirst);
    this.journalOnDisk = true;
    this.forgetChanges();
  }

  /** The lines of what changed since the last flush, after `begin` when the journal is new. */
  private *journalLines(begin: string | undefined): Generator<string> {
    if (begin !== undefined) yield begin;
    for (const [key, record] of this.changed) yield journalLine(record === null ? { t: "drop", key } : { t: "set", key, record });
    if (this.providersLine !== undefined) yield this.providersLine;
  }

  /** Folds everything into state.json (atomically, 0600; written a record at a time) and removes the journal. */
  async save(state: StateFile): Promise<void> {
    state.serial += 1;
    this.forgetChanges();
    await this.files
      .perform([
        { op: "clean-temps", path: this.path },
        { op: "write", path: this.path, content: () => stateJsonPieces(state), mode: 0o600, owner: this.files.ownership() },
        ...(this.journalOnDisk ? [{ op: "remove" as const, path: this.journalPath, kind: "file" as const }] : []),
      ])
      .then(throwFirst);
    this.journalOnDisk = false;
    this.journalSpent = false;
  }

  private forgetChanges(): void {
    this.changed = new Map();
    this.providersLine = undefined;
  }
}

/** One line of the journal, as written. */
function journalLine(line: JournalLine): string {
  return `${JSON.stringify(line)}\n`;
}

function throwFirst(results: (Error | null)[]): void {
  const failure = results.find((r) => r !== null);
  if (failure) throw failure;
}

/**
 * A resource as the state keeps it: a file's content is replaced by its hash. The state needs a
 * file's path to remove it, never its bytes (the artifact's hash is what drift is judged by), and
 * a big file would otherwise be written again into every journal entry and state file.
 */
function recordable(resource: Resource): Resource {
  return resource.type === "file" && !resource.content.startsWith("sha256:") ? { ...resource, content: contentHash(resource.content) } : resource;
}

/**
 * The text of the state or its journal, or null when there is none. Anything else at its path (a
 * folder, a link, a FIFO) is refused before anything is planned: an apply that ran on as if there
 * were no state would write every file, then fail to record them, leaving them all orphans.
 */
function fileText(found: PathContent, where: string): string | null {
  if (found.kind === "absent") return null;
  if (found.kind === "file") return found.content;
  const what = found.kind === "directory" ? "a folder" : found.kind === "symlink" ? `a symlink (-> ${found.target})` : "a device, FIFO or socket";
  throw moreErrors.stateDamaged(where, `it is ${what}, not a file`);
}
