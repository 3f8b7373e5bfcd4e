import { createGitHubCodeHost, personalToken } from '@switchyard/code-host';
import {
  GITHUB_SECONDARY_LIMITS,
  loadDemoSeed,
  REQUEST_COUNTER_PATH,
  type RequestCounts,
  startGitHubEmulator,
} from '@switchyard/github-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookWrites, parseWriteLimits } from '../src/write-budget/write-budget.policy.ts';
import { bookSharedWrites } from '../src/write-budget/write-budget.repository.ts';
import { sharedWriteBudget } from '../src/write-budget/write-budget.service.ts';
import { BOT, type ReleaseHarness, startReleaseHarness } from './harness.ts';

/** The shared budget of content-creating requests on PostgreSQL: bookings made at once by many callers go one by one. */
describe('bookSharedWrites: one budget per installation, shared through PostgreSQL', () => {
  let h: ReleaseHarness;
  beforeAll(async () => {
    h = await startReleaseHarness('write_budget');
  }, 120_000);
  afterAll(() => h?.close());

  it('books 20 concurrent pull requests of one installation in turn, as one caller would, apart from another installation', async () => {
    const limits = parseWriteLimits('40:1000,500:60000');
    const now = 1_000_000;
    const waits = await Promise.all(Array.from({ length: 20 }, () => bookSharedWrites(h.db, 'installation:1', limits, 3, now)));
    let states: Parameters<typeof bookWrites>[1] = [undefined, undefined];
    const expected: number[] = [];
    for (let i = 0; i < 20; i++) {
      const booked = bookWrites(limits, states, 3, now);
      states = booked.states;
      expected.push(booked.waitMs);
    }
    expect(waits.sort((a, b) => a - b)).toEqual(expected);
    expect(await bookSharedWrites(h.db, 'installation:2', limits, 3, now)).toBe(0);
    const rows = await h.db.selectFrom('write_budget').selectAll().where('key', '=', 'installation:1').orderBy('window_ms').execute();
    expect(rows.map((row) => Number(row.window_ms))).toEqual([1_000, 60_000]);
  });

  it("paces every content-creating request the adapter sends, so GitHub's secondary limits are never reached", async () => {
    // GitHub's limits (80 a minute, 500 an hour) on a clock 600 times as fast: 80 in 100 ms of real time.
    const speed = 600;
    const startedAt = Date.now();
    const emulator = await startGitHubEmulator({
      seed: loadDemoSeed(),
      logger: h.logger,
      secondaryLimits: GITHUB_SECONDARY_LIMITS,
      now: () => startedAt + (Date.now() - startedAt) * speed,
    });
    try {
      const tokens = personalToken(BOT);
      const budget = sharedWriteBudget(h.db, tokens, parseWriteLimits(`80:${60_000 / speed},500:${3_600_000 / speed}`));
      const paced: string[] = [];
      const host = createGitHubCodeHost({
        baseUrl: emulator.url,
        logger: h.logger,
        throttle: false,
        retries: 0,
        beforeContentCreation: (token) => {
          paced.push(token);
          return budget.beforeContentCreation(token);
        },
      });
      const repo = { owner: 'acme', name: 'web-storefront' };
      // An issue and 149 comments at once: unpaced, the emulator refuses all but 80 of them.
      const issue = await host.openIssue(BOT, repo, { title: 'paced', body: 'Comments follow.' });
      const comments = await Promise.all(Array.from({ length: 149 }, (_, i) => host.comment(BOT, repo, issue.number, `comment ${i}`)));
      expect(comments).toHaveLength(149);
      expect(paced).toHaveLength(150);
      // Reads are not paced.
      await host.getBranchHead(BOT, repo, 'main');
      expect(paced).toHaveLength(150);
      const counts = (await (await fetch(`${emulator.url}${REQUEST_COUNTER_PATH}`)).json()) as RequestCounts;
      expect(counts.limited).toEqual({ primary: 0, secondaryConcurrent: 0, secondaryContent: 0 });
      // More than a burst may hold (80 × 10 % − 1 = 7) waits; asking books nothing, so asking again waits no longer.
      const first = await budget.expectedWait('acme', 20);
      expect(first).toBeGreaterThan(0);
      expect(await budget.expectedWait('acme', 20)).toBeLessThanOrEqual(first);
    } finally {
      await emulator.close();
    }
  });
});
