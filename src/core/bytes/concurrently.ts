/**
 * Runs `work` on every item with at most `limit` calls in flight. Reads of many small ranges
 * (row index segments) wait on I/O one round trip at a time when awaited in a loop; in flight
 * together they share it. Resolves when all are done; the first failure rejects, and no item
 * starts after it (those in flight still settle).
 */
export async function concurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    try {
      while (!failed && next < items.length) await work(items[next++]!);
    } catch (e) {
      failed = true;
      throw e;
    }
  };
  const lanes: Promise<void>[] = [];
  for (let i = 0; i < Math.max(1, Math.min(limit, items.length)); i++) lanes.push(lane());
  await Promise.all(lanes);
}
