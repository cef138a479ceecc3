/** Runs `task` over `items`, `width` at a time (two: the machine has two cores). */
export async function pool<T>(items: T[], task: (item: T) => Promise<void>, width = 2): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}
