import type { ArtifactStore, ReadContext, StoreContext } from "@tend/core/contract";
import { runningAsRoot, type CrontabAccess } from "./crontab-argv.js";
import { crontabErrors } from "./crontab-errors.js";
import { parseCrontabKey } from "./crontab-key.js";
import { findPrograms } from "./find-programs.js";
import { installCrontab } from "./install-crontab.js";
import { parseCrontab, splitLines, type ParsedCrontab } from "./parse-crontab.js";
import { readCrontab } from "./read-crontab.js";
import { spliceCrontab } from "./splice-crontab.js";

export interface CrontabBlockStoreOptions {
  /** Whether tend runs as root; default: asks the process. */
  asRoot?: boolean;
}

type BlockChange = Parameters<ArtifactStore["write"]>[0][number];

/**
 * The `crontab-block` store: user timers as blocks in users' crontabs, keyed
 * `crontab <user>: tend:<name>`. One `crontab -l` per user and call. It remembers the whole text
 * each crontab had when read for the plan; `write` reads it again under the lock and refuses if
 * anything in it changed since (a `crontab -e` in between), then installs the spliced text with
 * one `crontab -` per user, touching nothing outside tend's blocks. What it remembers is kept by
 * host (its files), then by root and user: one provider serves every host of a fleet, side by
 * side, and two hosts may each have an alice.
 */
export class CrontabBlockStore implements ArtifactStore {
  private readonly plannedByHost = new WeakMap<ReadContext["files"], Map<string, string>>();
  private readonly asRoot: boolean | undefined;

  constructor(options: CrontabBlockStoreOptions = {}) {
    this.asRoot = options.asRoot;
  }

  async read(paths: string[], ctx: StoreContext): Promise<Map<string, string | null>> {
    const found = new Map<string, string | null>();
    for (const [user, keys] of keysByUser(paths)) {
      const { text, parsed } = await this.load(user, ctx);
      this.planned(ctx).set(cacheKey(user, ctx), text);
      for (const [key, name] of keys) found.set(key, parsed.blocks.get(name) ?? null);
    }
    return found;
  }

  async write(changes: BlockChange[], ctx: StoreContext): Promise<void> {
    const installs: { user: string; text: string }[] = [];
    for (const [user, userChanges] of changesByUser(changes)) {
      const { text, parsed } = await this.load(user, ctx);
      const planned = this.planned(ctx).get(cacheKey(user, ctx));
      if (planned !== undefined && planned !== text) throw crontabErrors.changed(user, "its lines differ from those read for the plan");
      const updates = new Map<string, string | null>();
      for (const { name, change } of userChanges) {
        if ((parsed.blocks.get(name) ?? null) !== change.expected) throw crontabErrors.changed(user, `block tend:${name} differs`);
        updates.set(name, change.content);
      }
      const next = spliceCrontab(parsed, updates);
      if (next === text) {
        this.planned(ctx).set(cacheKey(user, ctx), next);
        continue;
      }
      assertInstallable(user, text, next);
      installs.push({ user, text: next });
    }
    for (const { user, text } of installs) {
      await installCrontab(user, text, ctx.run, this.access(ctx));
      this.planned(ctx).set(cacheKey(user, ctx), text);
    }
  }

  /** The tend blocks in a user's crontab now, without touching what `write` compares against. */
  async blocksOf(user: string, ctx: ReadContext): Promise<Map<string, string>> {
    return (await this.load(user, ctx)).parsed.blocks;
  }

  private async load(user: string, ctx: ReadContext): Promise<{ text: string; parsed: ParsedCrontab }> {
    let text: string;
    try {
      text = await readCrontab(user, ctx.run, this.access(ctx));
    } catch (error) {
      // Without a `crontab` program there is no crontab to read, and none can be written: the
      // provider's host check then refuses the plan, naming what to install.
      if ((await findPrograms("crontab", ctx.files)).some((p) => p.executable)) throw error;
      text = "";
    }
    return { text, parsed: parseCrontab(text, user) };
  }

  /** The texts read for the plan on this host. */
  private planned(ctx: ReadContext): Map<string, string> {
    let planned = this.plannedByHost.get(ctx.files);
    if (!planned) this.plannedByHost.set(ctx.files, (planned = new Map()));
    return planned;
  }

  private access(ctx: ReadContext): CrontabAccess {
    return { asRoot: this.asRoot ?? runningAsRoot(), root: ctx.root };
  }
}

/**
 * Refuses, before installing anything, what would change the user's own lines:
 * - bytes that are not UTF-8 in what was read (each became U+FFFD in `read`, and would be
 *   written back as that character's bytes);
 * - a last line that is a job or a variable without a newline: Debian's crontab refuses such a
 *   file (and cron would skip that line), and tend never adds that newline to a user's line.
 */
function assertInstallable(user: string, read: string, text: string): void {
  const bad = read.indexOf("\uFFFD");
  if (bad !== -1) throw crontabErrors.notUtf8(user, read.slice(0, bad).split("\n").length);
  if (text === "" || text.endsWith("\n")) return;
  const last = splitLines(text).at(-1) ?? "";
  if (last.trim() === "" || last.trimStart().startsWith("#")) return;
  throw crontabErrors.noFinalNewline(user, last);
}

function cacheKey(user: string, ctx: ReadContext): string {
  return `${ctx.root ?? ""}\u0000${user}`;
}

function userAndName(key: string): { user: string; name: string } {
  const parsed = parseCrontabKey(key);
  if (!parsed) throw new Error(`crontab-block: \`${key}\` is not a key of this store (crontab USER: tend:NAME)`);
  return parsed;
}

function keysByUser(paths: string[]): Map<string, [string, string][]> {
  const byUser = new Map<string, [string, string][]>();
  for (const key of paths) {
    const { user, name } = userAndName(key);
    byUser.set(user, [...(byUser.get(user) ?? []), [key, name]]);
  }
  return byUser;
}

function changesByUser(changes: BlockChange[]): Map<string, { name: string; change: BlockChange }[]> {
  const byUser = new Map<string, { name: string; change: BlockChange }[]>();
  for (const change of changes) {
    const { user, name } = userAndName(change.artifact.path);
    byUser.set(user, [...(byUser.get(user) ?? []), { name, change }]);
  }
  return byUser;
}

