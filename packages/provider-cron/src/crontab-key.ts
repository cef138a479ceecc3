/** The store that holds user timers: blocks inside users' crontabs. */
export const CRONTAB_BLOCK_STORE = "crontab-block";

/** A user timer's artifact key, as shown in plans: `crontab alice: tend:backup`. */
export function crontabKey(user: string, name: string): string {
  return `crontab ${user}: tend:${name}`;
}

/** The user and timer name in a key made by {@link crontabKey}; undefined for anything else. */
export function parseCrontabKey(key: string): { user: string; name: string } | undefined {
  const match = /^crontab ([^\s:]+): tend:(\S+)$/.exec(key);
  return match ? { user: match[1]!, name: match[2]! } : undefined;
}
