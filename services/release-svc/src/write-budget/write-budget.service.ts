import { setTimeout as sleep } from 'node:timers/promises';
import type { CodeHostTokens } from '@switchyard/code-host';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { GITHUB_CONTENT_LIMITS, type WriteLimit } from './write-budget.policy.ts';
import { bookSharedWrites, expectedSharedWait } from './write-budget.repository.ts';

/**
 * The worker's budget of content-creating code-host requests (commits, refs, pull requests, comments, issues, labels,
 * merges), per installation (App mode) or for the one token (personal-token mode), shared by every worker through
 * PostgreSQL (`release.write_budget`): each request is booked right before it is sent, by the code-host adapter
 * (`GitHubCodeHostOptions.beforeContentCreation`), and waits the time it is told, so the code host's secondary limits
 * on content creation are never reached (see `bookWrites`), whichever code path sends it.
 */
export interface WriteBudget {
  /**
   * Books one content-creating request sent with `token` (a token `tokens` handed out) and resolves once it may be sent.
   * @throws the database's errors (the request is not sent)
   */
  beforeContentCreation(token: string): Promise<void>;
  /**
   * How long `cost` content-creating requests on `owner`'s repositories would wait if booked now, ms (0: none); nothing
   * is booked. A job says with it when its pull request will be opened.
   * @throws as `CodeHostTokens.limitKey`, and the database's errors
   */
  expectedWait(owner: string, cost: number): Promise<number>;
}

/**
 * A {@link WriteBudget} on `limits` (default GitHub's: 80 a minute, 500 an hour), keyed by the installation
 * (`tokens.limitKeyOfToken` / `limitKey`); `now` is the clock, epoch ms.
 */
export function sharedWriteBudget(
  db: Kysely<ReleaseDatabase>,
  tokens: CodeHostTokens,
  limits: readonly WriteLimit[] = GITHUB_CONTENT_LIMITS,
  now: () => number = Date.now,
): WriteBudget {
  return {
    async beforeContentCreation(token) {
      const waitMs = await bookSharedWrites(db, tokens.limitKeyOfToken(token), limits, 1, now());
      if (waitMs > 0) await sleep(waitMs);
    },
    async expectedWait(owner, cost) {
      return expectedSharedWait(db, await tokens.limitKey(owner), limits, cost, now());
    },
  };
}
