/** The uid tend runs as (its own module so tests can stand in for another user). */
export function processUid(): number {
  return process.getuid?.() ?? 0;
}
