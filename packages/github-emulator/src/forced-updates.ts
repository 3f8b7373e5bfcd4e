import type { Express } from 'express';
import { commitsBetween } from './git/history.ts';
import type { GitSignature } from './git/objects.ts';
import type { GitRepository } from './git/repository-store.ts';
import type { EmulatorState, ForcedUpdateRecord } from './repo-state.ts';
import type { EmulatedUser, World } from './world.ts';

export type { DiscardedCommit, ForcedUpdateRecord } from './repo-state.ts';

/**
 * Forced ref updates (`PATCH /git/refs/{ref}` with `force: true` that is not a fast forward), kept per repository with
 * the world, and the test-only route that lists those that discarded someone else's work: a bot that force-pushes over
 * a person's commit on its branch loses that person's work, which GitHub keeps no trace of. GitHub has no such route.
 */

/** The path of the forced-updates route: `GET` answers {@link ForcedUpdates}. */
export const FORCED_UPDATES_PATH = '/_emulator/forced-updates';

/** What `GET /_emulator/forced-updates` answers. */
export interface ForcedUpdates {
  /** Forced updates made in all (every repository, since the world was made). */
  forcedUpdates: number;
  /** Those that discarded at least one commit whose author is not the pusher, oldest first, with their repository. */
  discardingOthersCommits: (ForcedUpdateRecord & { repo: string })[];
}

/** The email git records for `user`'s commits made through the API (the emulator's `userSignature`). */
export const signatureEmail = (user: EmulatedUser): string => user.email ?? `${user.id}+${user.login}@users.noreply.github.com`;

/**
 * The record of `pusher` moving `ref` from `before` to `after` by force: the commits reachable from `before` and not
 * from `after` (git's `after..before`), and those of them another author made (compared by email).
 */
export function forcedUpdate(
  git: GitRepository,
  update: { ref: string; before: string; after: string; pusher: EmulatedUser; at: string },
): ForcedUpdateRecord {
  const email = signatureEmail(update.pusher).toLowerCase();
  const lost = commitsBetween(git, update.after, update.before);
  const author = (signature: GitSignature) => ({ name: signature.name, email: signature.email });
  return {
    ref: update.ref,
    before: update.before,
    after: update.after,
    pusher: update.pusher.login,
    at: update.at,
    discarded: lost.length,
    othersDiscarded: lost
      .filter((commit) => commit.author.email.toLowerCase() !== email)
      .map((c) => ({ sha: c.sha, author: author(c.author) })),
  };
}

/** Mounts `GET /_emulator/forced-updates` ({@link ForcedUpdates}, no token needed: a test hook, as `/_emulator/requests`). */
export function mountForcedUpdates(app: Express, state: EmulatorState, world: World): void {
  app.get(FORCED_UPDATES_PATH, (_req, res) => {
    const answer: ForcedUpdates = { forcedUpdates: 0, discardingOthersCommits: [] };
    for (const [id, records] of state.repoStates()) {
      const repo = world.repoById(id);
      answer.forcedUpdates += records.forcedUpdates.length;
      for (const update of records.forcedUpdates) {
        if (update.othersDiscarded.length > 0)
          answer.discardingOthersCommits.push({ repo: repo ? `${repo.owner}/${repo.name}` : String(id), ...update });
      }
    }
    answer.discardingOthersCommits.sort((a, b) => a.at.localeCompare(b.at));
    res.status(200).type('application/json; charset=utf-8').send(JSON.stringify(answer));
  });
}
