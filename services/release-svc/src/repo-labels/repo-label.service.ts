import { setTimeout as sleep } from 'node:timers/promises';
import type { CodeHost, LabelInput, RepoRef } from '@switchyard/code-host';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { claimLabelMaking, findMadeLabels, recordMadeLabels, releaseLabelMaking } from './repo-label.repository.ts';

/** How long a worker's claim on making a repository's labels holds (its content-creating requests may wait for the budget). */
const CLAIM_LEASE_MS = 10 * 60_000;
/** How long a worker waits for another one making the labels before it labels the pull request anyway. */
const WAIT_FOR_OTHERS_MS = 15_000;
const POLL_MS = 200;

const nameOf = (label: LabelInput) => (typeof label === 'string' ? label : label.name).toLowerCase();

/**
 * Puts `labels` on pull request `number` of repository `repoId` (`repo`), making the labels the repository lacks once,
 * by one worker: the labels made (or found) are recorded per repository (`release.repo_label`), so a repository's
 * later pull requests cost one request (`POST /issues/{n}/labels`); the labels it lacks are made by the worker that
 * claims the repository (`release.repo_label_claim`: `GET /labels` and a `POST /labels` for each one missing), while
 * any other worker waits for them (at most 15 s; then it labels anyway, and GitHub makes a missing label with its
 * default colour), so two workers never race to make the same label.
 * @throws CodeHostError from the code host; the database's errors
 */
export async function labelPullRequest(
  deps: { db: Kysely<ReleaseDatabase>; codeHost: CodeHost },
  token: string,
  target: { repoId: number; repo: RepoRef },
  number: number,
  labels: readonly LabelInput[],
): Promise<void> {
  const { db, codeHost } = deps;
  const { repoId, repo } = target;
  if (labels.length === 0 || !codeHost.addLabels) return;
  const names = [...new Set(labels.map(nameOf))];
  let made = await findMadeLabels(db, repoId, names);
  if (made.size < names.length && codeHost.ensureLabels) {
    if (await claimLabelMaking(db, repoId, CLAIM_LEASE_MS)) {
      try {
        // Read again under the claim: a worker that held it until just now may have made them.
        made = await findMadeLabels(db, repoId, names);
        if (made.size === names.length)
          return await codeHost.addLabels(token, repo, number, labels, { existing: true }).then(() => undefined);
        await codeHost.ensureLabels(
          token,
          repo,
          labels.filter((label) => !made.has(nameOf(label))),
        );
        await recordMadeLabels(
          db,
          repoId,
          names.filter((name) => !made.has(name)),
        );
      } finally {
        await releaseLabelMaking(db, repoId);
      }
    } else {
      const until = Date.now() + WAIT_FOR_OTHERS_MS;
      while (made.size < names.length && Date.now() < until) {
        await sleep(POLL_MS);
        made = await findMadeLabels(db, repoId, names);
      }
    }
  }
  await codeHost.addLabels(token, repo, number, labels, { existing: true });
}
