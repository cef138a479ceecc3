import { createCronProvider } from "./cron-provider.js";

export { createCronProvider, type CronProviderOptions } from "./cron-provider.js";
export { CrontabBlockStore, type CrontabBlockStoreOptions } from "./crontab-block-store.js";
export { CRONTAB_BLOCK_STORE, crontabKey, parseCrontabKey } from "./crontab-key.js";
export { parseCrontab, type CrontabUnit, type ParsedCrontab } from "./parse-crontab.js";
export { spliceCrontab } from "./splice-crontab.js";
export { renderCronFile, cronFilePath } from "./render-cron-file.js";
export { renderCrontabBlock } from "./render-crontab-block.js";
export { cronCommand } from "./cron-command.js";
export { escapeCronCommand } from "./escape-cron-command.js";
export { checkTimer } from "./check-timer.js";

/** The cron provider, found by discovery through this package's `tend` marker. */
export default createCronProvider();
