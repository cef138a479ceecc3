import { moreErrors } from "../errors/catalogue.js";

/** How long a spec module may take to load and produce its resources: `TEND_SPEC_TIMEOUT` seconds, 30 by default. */
export function specDeadlineSeconds(): number {
  const configured = Number(process.env.TEND_SPEC_TIMEOUT);
  return Number.isFinite(configured) && configured > 0 ? configured : 30;
}

/**
 * Waits for a spec's promise, at most until the deadline. The timer keeps the process alive:
 * without it a promise that never settles would let node exit quietly with status 0.
 */
export async function withDeadline<T>(promise: Promise<T>, file: string): Promise<T> {
  const seconds = specDeadlineSeconds();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(moreErrors.specTimeout(file, seconds)), seconds * 1000);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
