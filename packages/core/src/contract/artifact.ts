/**
 * One thing a resource becomes on disk. The core owns every artifact: it reads them to detect
 * drift, writes them atomically, records their hashes in the state file and deletes exactly the
 * recorded ones on removal. Providers only describe them.
 */
/** The mode of a `file` artifact that names none. */
export const FILE_MODE = 0o644;
/** The mode of a `directory` artifact that names none. */
export const DIRECTORY_MODE = 0o755;

export interface Artifact {
  /**
   * Which store holds it. `file` (the default) and `symlink` and `directory` are the core's own;
   * any other name must be a store the provider defines in {@link ProviderDefinition.stores}
   * (the cron provider's `crontab-block`).
   */
  store?: "file" | "symlink" | "directory" | (string & {});
  /**
   * Identity. For the core's stores an absolute path as the host sees it (the core maps it under
   * `--root`); for a provider's store, a key of its own that reads well in messages
   * (`crontab alice: tend:backup`).
   */
  path: string;
  /** File bytes (UTF-8); a symlink's target; empty for a directory; a block's text. */
  content: string;
  /**
   * Octal permission bits, e.g. 0o644 (files) or 0o755 (directories, executable scripts); without
   * one a file gets {@link FILE_MODE} and a directory {@link DIRECTORY_MODE}. The mode (and the
   * owner, where given) is compared with the host's like the content: a difference is drift, set
   * right in place.
   */
  mode?: number;
  /** Owner and group by name; default root:root in the system scope, the user in a user scope. */
  owner?: string;
  group?: string;
  /**
   * For a `directory`: entries the init creates inside it at run time (runit's `supervise`),
   * removed with it when the resource goes. Anything else found inside keeps it in place.
   */
  ephemeral?: string[];
  /**
   * For a `file`: the init reads an empty file at this path as a mask (systemd's units). An empty
   * file found there is then the admin's mask, refused like a link to `/dev/null`: apply never
   * writes over it, `--adopt` or not.
   */
  masksWhenEmpty?: boolean;
  /**
   * For a `file`: what tend itself puts at this path for a moment during an apply, before its
   * own content goes there (runit's transient `down`, which holds back a service added stopped
   * until runsv has seen it). Found there, it is what a killed apply left: tend's to rewrite,
   * not refused as the admin's.
   */
  interim?: string;
}

/**
 * Storage for artifacts that are not whole files, such as a block inside a user's crontab. The
 * core still does the hashing, drift detection and bookkeeping.
 */
export interface ArtifactStore {
  /** Current content of each key (null when absent), for many keys in one go. */
  read(paths: string[], ctx: import("./context.js").StoreContext): Promise<Map<string, string | null>>;
  /**
   * Writes (content) or removes (null) the given keys. `expected` holds what `read` returned
   * during planning: a store whose backing data changed since must refuse rather than clobber it.
   */
  write(
    changes: { artifact: Artifact; content: string | null; expected: string | null }[],
    ctx: import("./context.js").StoreContext,
  ): Promise<void>;
}
