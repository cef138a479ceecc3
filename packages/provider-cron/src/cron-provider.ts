import { defineProvider, type ProviderDefinition, type Resource } from "@tend/core/contract";
import { checkCronHost } from "./check-cron-host.js";
import { checkTimer } from "./check-timer.js";
import { CrontabBlockStore } from "./crontab-block-store.js";
import { CRONTAB_BLOCK_STORE } from "./crontab-key.js";
import { observeTimers, userOf } from "./observe-timers.js";
import { cronFilePath, renderCronFile } from "./render-cron-file.js";
import { renderCrontabBlock } from "./render-crontab-block.js";

export interface CronProviderOptions {
  /** Whether tend runs as root (decides `crontab -u`); default: asks the process. */
  asRoot?: boolean;
  /** The clock for the `next` run shown by observe; default: the system clock. */
  now?: () => Date;
}

/**
 * Timers on hosts whose init has none (runit, OpenRC, dinit, s6), as cron entries: a system
 * timer is `/etc/cron.d/tend-<name>`, a user timer a block in the user's crontab. cron reads both
 * by itself within a minute, so apply runs no command; removal is the core deleting the file or
 * the block.
 */
export function createCronProvider(options: CronProviderOptions = {}): ProviderDefinition {
  const store = new CrontabBlockStore(options.asRoot === undefined ? {} : { asRoot: options.asRoot });
  const now = options.now ?? (() => new Date());
  return defineProvider({
    apiVersion: 1,
    name: "cron",
    serves: { inits: [], types: ["timer"], fallback: true },
    capabilities: { timer: { userTimers: true, skippedTimes: "run-after" } },
    check: (resource) => checkTimer(resource),
    render(resource, ctx) {
      if (resource.type !== "timer") return [];
      return [resource.user ? renderCrontabBlock(resource, userOf(ctx)) : renderCronFile(resource)];
    },
    observe: (resources, ctx) => observeTimers(resources, ctx, store, now()),
    checkHost: (resources, _observations, ctx) => checkCronHost(resources, ctx),
    async apply(change, ctx) {
      if (change.ops.length > 0) ctx.log(`${change.key}: cron reads ${where(change.resource, ctx)} within a minute; nothing to run`);
    },
    async remove() {
      // Nothing to stop: deleting the file or the block (the core does) is the whole removal.
    },
    stores: { [CRONTAB_BLOCK_STORE]: store },
  });
}

function where(resource: Resource, ctx: Parameters<typeof userOf>[0]): string {
  return resource.type === "timer" && resource.user ? `the crontab of ${userOf(ctx)}` : cronFilePath(resource.name);
}
