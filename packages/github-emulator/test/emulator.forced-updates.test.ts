import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Listening } from '@switchyard/service-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { FORCED_UPDATES_PATH, type ForcedUpdates, loadDemoSeed, startGitHubEmulator } from '../src/index.ts';
import { ALICE, silentLogger } from './fixtures.ts';
import { type Api, apiAs, commitThroughApi, headOf } from './writes.ts';

const REPO = 'acme/web-storefront';
/** The demo seed's bot, with write access on acme/web-storefront. */
const BOT = 'demo-token-bot';
const folders: string[] = [];

const forcedUpdates = async (server: Listening): Promise<ForcedUpdates> =>
  (await (await fetch(`${server.url}${FORCED_UPDATES_PATH}`)).json()) as ForcedUpdates;

/** Moves `branch` to `sha`, by force or as a fast forward; fails the test unless 200. */
async function move(api: Api, branch: string, sha: string, force: boolean): Promise<void> {
  const res = await api.patch(`/repos/${REPO}/git/refs/heads/${branch}`, { sha, force });
  expect(res.status, res.text).toBe(200);
}

describe('GitHub emulator: forced updates that discard someone else’s commits', () => {
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('lists a force-push over another author’s commit, not one over the pusher’s own commits, and keeps them across a restart', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'github-emulator-forced-'));
    folders.push(folder);
    const start = () => startGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, dataDir: folder });
    const first = await start();
    let before: ForcedUpdates;
    try {
      const [bot, alice] = [apiAs(first.url, BOT), apiAs(first.url, ALICE)];
      const main = await headOf(bot, REPO, 'main');
      // The bot's branch and commit; a rebase of its own commit by force discards only its own work.
      const own = await commitThroughApi(bot, REPO, main, { 'bump.txt': '1\n' }, 'Bump');
      expect((await bot.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/dependabot/x', sha: own })).status).toBe(201);
      const rebased = await commitThroughApi(bot, REPO, main, { 'bump.txt': '2\n' }, 'Bump again');
      await move(bot, 'dependabot/x', rebased, true);
      expect(await forcedUpdates(first)).toEqual({ forcedUpdates: 1, discardingOthersCommits: [] });

      // alice pushes on the bot's branch (a fast forward: nothing recorded), then the bot force-pushes over her commit.
      const hers = await commitThroughApi(alice, REPO, rebased, { 'fix.txt': 'fix\n' }, 'Fix the bump');
      await move(alice, 'dependabot/x', hers, false);
      const again = await commitThroughApi(bot, REPO, main, { 'bump.txt': '3\n' }, 'Bump once more');
      await move(bot, 'dependabot/x', again, true);
      // A forced update that is a fast forward discards nothing and is no forced update.
      await move(bot, 'main', main, true);

      before = await forcedUpdates(first);
      expect(before).toEqual({
        forcedUpdates: 2,
        discardingOthersCommits: [
          {
            repo: REPO,
            ref: 'refs/heads/dependabot/x',
            before: hers,
            after: again,
            pusher: 'switchyard-bot',
            at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
            discarded: 2,
            othersDiscarded: [{ sha: hers, author: { name: 'Alice Example', email: 'alice@example.com' } }],
          },
        ],
      });
    } finally {
      await first.close();
    }
    const second = await start();
    try {
      expect(await forcedUpdates(second)).toEqual(before);
    } finally {
      await second.close();
    }
  });
});
