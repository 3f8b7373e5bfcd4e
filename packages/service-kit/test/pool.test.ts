import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runPool } from '../src/pool.ts';

describe('runPool', () => {
  it('works every item, never more than `concurrency` at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await runPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await delay(5 * (n % 3));
      running -= 1;
      done.push(n);
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('does nothing for no items, and runs one at a time for a concurrency below 1', async () => {
    await runPool([], 4, async () => {
      throw new Error('not called');
    });
    const order: number[] = [];
    await runPool([1, 2, 3], 0, async (n) => {
      order.push(n);
    });
    expect(order).toEqual([1, 2, 3]);
  });

  it('starts no item after a failure, lets the ones under way finish, then throws the first error', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = runPool([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 1) throw new Error('item 1 failed');
      await delay(20);
      finished.push(n);
    });
    await expect(run).rejects.toThrow('item 1 failed');
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([2]);
  });
});
