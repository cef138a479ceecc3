/**
 * Runs `act` for each target of a wave, one after another, keeping each failure by key and
 * skipping targets that failed before: a failure ends only its own service's part.
 */
export async function eachOf<T extends { key: string }>(targets: T[], failures: Map<string, unknown>, act: (target: T) => Promise<void>): Promise<void> {
  for (const target of targets) {
    if (failures.has(target.key)) continue;
    try {
      await act(target);
    } catch (error) {
      failures.set(target.key, error);
    }
  }
}
