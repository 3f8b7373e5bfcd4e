import { createGitHubCodeHost } from '@switchyard/code-host';
import { loadDemoSeed, REQUEST_COUNTER_PATH, type RequestCounts, startGitHubEmulator } from '@switchyard/github-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelPullRequest } from '../src/repo-labels/repo-label.service.ts';
import { BOT, type ReleaseHarness, startReleaseHarness } from './harness.ts';

/**
 * A repository's labels are made once, by one worker: pull requests labelled at once by many callers (workers) make
 * each missing label with one `POST /labels` and no 422 race, and later pull requests cost `POST /issues/{n}/labels` alone.
 */
describe('labelPullRequest: labels made once per repository, never raced', () => {
  let h: ReleaseHarness;
  beforeAll(async () => {
    h = await startReleaseHarness('repo_labels');
  }, 120_000);
  afterAll(() => h?.close());

  it('makes the missing labels once while eight pull requests are labelled at once, then only labels', async () => {
    const emulator = await startGitHubEmulator({ seed: loadDemoSeed(), logger: h.logger });
    try {
      const codeHost = createGitHubCodeHost({ baseUrl: emulator.url, logger: h.logger, throttle: false, retries: 0 });
      const repo = { owner: 'acme', name: 'web-storefront' };
      const target = { repoId: 3101, repo };
      const issues = await Promise.all(
        Array.from({ length: 9 }, (_, i) => codeHost.openIssue(BOT, repo, { title: `labelled ${i}`, body: '' })),
      );
      const labels = [
        { name: 'dependencies', color: '0366d6' },
        'javascript',
        { name: 'made-once', color: 'abcdef', description: 'Labelled once' },
      ];
      const counts = async () => (await (await fetch(`${emulator.url}${REQUEST_COUNTER_PATH}`)).json()) as RequestCounts;
      const route = (all: RequestCounts, name: string) => all.routes[name] ?? {};

      // Eight at once, each with its own adapter (a worker each: nothing known in memory).
      await Promise.all(
        issues
          .slice(0, 8)
          .map((issue) =>
            labelPullRequest(
              { db: h.db, codeHost: createGitHubCodeHost({ baseUrl: emulator.url, logger: h.logger, throttle: false, retries: 0 }) },
              BOT,
              target,
              issue.number,
              labels,
            ),
          ),
      );
      const first = await counts();
      expect(route(first, 'GET /repos/:owner/:repo/labels')).toEqual({ '200': 1 });
      expect(Object.keys(route(first, 'POST /repos/:owner/:repo/labels'))).toEqual(['201']);
      expect(route(first, 'POST /repos/:owner/:repo/issues/:number/labels')).toEqual({ '200': 8 });
      const made = (await (
        await fetch(`${emulator.url}/repos/acme/web-storefront/labels?per_page=100`, { headers: { authorization: `token ${BOT}` } })
      ).json()) as Array<{ name: string; color: string; description: string | null }>;
      expect(made.find((label) => label.name === 'made-once')).toMatchObject({ color: 'abcdef', description: 'Labelled once' });

      // A later pull request, by a worker that never saw the repository: one request.
      const before = await counts();
      await labelPullRequest({ db: h.db, codeHost }, BOT, target, issues[8]?.number ?? 0, labels);
      const later = await counts();
      expect(route(later, 'GET /repos/:owner/:repo/labels')).toEqual(route(before, 'GET /repos/:owner/:repo/labels'));
      expect(route(later, 'POST /repos/:owner/:repo/labels')).toEqual(route(first, 'POST /repos/:owner/:repo/labels'));
      expect(route(later, 'POST /repos/:owner/:repo/issues/:number/labels')).toEqual({ '200': 9 });
    } finally {
      await emulator.close();
    }
  });
});
