/**
 * Runs `work` on every item, at most `concurrency` at once (below 1 counts as 1), taking items in order. When one call
 * throws, no further item is started; the calls under way are let finish, then the first error is thrown. Items never
 * started are simply not worked on (the caller can tell which by what `work` recorded).
 * @throws the first error `work` threw
 */
export async function runPool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = items.values();
  let failure: { error: unknown } | undefined;
  const runner = async () => {
    for (let next = queue.next(); !next.done && !failure; next = queue.next()) {
      try {
        await work(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, runner));
  if (failure) throw failure.error;
}
