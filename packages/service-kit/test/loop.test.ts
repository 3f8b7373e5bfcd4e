import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLoop } from '../src/loop.ts';

const quiet = () => {
  const warnings: string[] = [];
  return {
    warnings,
    logger: {
      warn: (_: object, message: string) => {
        warnings.push(message);
      },
    },
  };
};

/** A promise the test resolves by hand: a round that lasts until the test says so. */
const gate = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
};

describe('startLoop', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs a round at once and then every interval; after stop() no round starts', async () => {
    const { logger } = quiet();
    let rounds = 0;
    const loop = startLoop({
      name: 'test',
      intervalMs: 10,
      logger,
      round: async () => {
        rounds += 1;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(30);
    expect(rounds).toBe(4);
    await loop.stop();
    await vi.advanceTimersByTimeAsync(100);
    expect(rounds).toBe(4);
  });

  it('never runs two rounds at once: ticks during a slow round are skipped, and stop() waits for it', async () => {
    const { logger } = quiet();
    let rounds = 0;
    let running = 0;
    const slow = gate();
    const loop = startLoop({
      name: 'slow',
      intervalMs: 5,
      logger,
      round: async () => {
        rounds += 1;
        running += 1;
        await slow.opened;
        running -= 1;
      },
    });
    await vi.advanceTimersByTimeAsync(50);
    expect(rounds).toBe(1);
    expect(running).toBe(1);
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    slow.open();
    await stopping;
    expect(running).toBe(0);
    expect(rounds).toBe(1);
  });

  it('logs a failed round and goes on; without `immediately` the first round waits an interval', async () => {
    const { logger, warnings } = quiet();
    let rounds = 0;
    const loop = startLoop({
      name: 'flaky',
      intervalMs: 10,
      immediately: false,
      logger,
      round: async () => {
        rounds += 1;
        if (rounds === 1) throw new Error('database away');
      },
    });
    await vi.advanceTimersByTimeAsync(9);
    expect(rounds).toBe(0);
    await vi.advanceTimersByTimeAsync(11);
    expect(rounds).toBe(2);
    await loop[Symbol.asyncDispose]();
    expect(warnings).toEqual(['flaky round failed; the next round tries again']);
  });

  it('refuses an interval that is not positive', () => {
    expect(() => startLoop({ name: 'x', intervalMs: 0, logger: quiet().logger, round: async () => {} })).toThrow(RangeError);
  });
});
