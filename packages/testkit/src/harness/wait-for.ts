import { setTimeout as sleep } from "node:timers/promises";

export interface WaitForOptions {
  /** What is awaited, for the timeout error: "web to run". */
  what: string;
  /** Default 30 s. */
  timeoutMs?: number;
  /** Pause between checks. Default 250 ms. */
  intervalMs?: number;
}

/** What a truthy check result can be: `T` without its falsy values. */
export type Truthy<T> = Exclude<T, undefined | null | false | 0 | "">;

/**
 * Calls `check` until it returns a truthy value, and resolves with that value. A check that throws
 * counts as "not yet". On timeout it throws, naming `what` and the last result or error.
 */
export async function waitFor<T>(check: () => Promise<T> | T, options: WaitForOptions): Promise<Truthy<T>> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let last = "it never returned";
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
      last = `the last check returned ${JSON.stringify(value)}`;
    } catch (error) {
      last = `the last check threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${options.what}; ${last}`);
    await sleep(options.intervalMs ?? 250);
  }
}
