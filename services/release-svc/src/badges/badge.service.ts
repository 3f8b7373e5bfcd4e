import { NotFound } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { type BadgeRepo, countOpenPullRequests, findRepoById, findRepoByName, lastRunOfEachConfig } from './badge.repository.ts';
import { type BadgeStatus, badgeStatus } from './badge-status.policy.ts';

/**
 * Which repo a badge is asked for, as `GET /badges/status` names it (https://api.dependabot.com/badges/status,
 * dependabot/feedback#6): `repo` (`owner/name`), `identifier` (the code host's repo id), or both, which must then name
 * the same repo. A query with neither names no repo.
 */
export interface BadgeQuery {
  repo?: string | undefined;
  identifier?: number | undefined;
}

/**
 * The status badge of a public repo: {@link badgeStatus} of its live update configs' last finished runs and its open
 * update pull requests.
 * @throws NotFound when the query names no repo the read model holds, when the repo is private (or its privacy is not
 *   known yet), and when `repo` and `identifier` name different repos: one answer for the three, whose detail repeats the query,
 *   so that it never tells whether a private repo exists, or which repo an identifier belongs to
 */
export async function repoBadge(db: Kysely<ReleaseDatabase>, query: BadgeQuery): Promise<BadgeStatus> {
  const repo = await findBadgeRepo(db, query);
  if (!repo || repo.private) throw new NotFound(`No public repo is known for ${describe(query)}`);
  const lastRuns = await lastRunOfEachConfig(db, repo.id);
  const openPullRequests = lastRuns.length === 0 ? 0 : await countOpenPullRequests(db, repo.id);
  return badgeStatus({ lastRuns, openPullRequests });
}

/** The repo `query` names, or undefined when there is none or its `repo` and `identifier` disagree. */
async function findBadgeRepo(db: Kysely<ReleaseDatabase>, query: BadgeQuery): Promise<BadgeRepo | undefined> {
  if (query.identifier === undefined) return query.repo === undefined ? undefined : findRepoByName(db, query.repo);
  const repo = await findRepoById(db, query.identifier);
  if (repo && query.repo !== undefined && repo.fullName.toLowerCase() !== query.repo.toLowerCase()) return undefined;
  return repo;
}

/** `repo=acme/web and identifier=42`, as the client asked. */
function describe(query: BadgeQuery): string {
  return (
    [
      ...(query.repo === undefined ? [] : [`repo=${query.repo}`]),
      ...(query.identifier === undefined ? [] : [`identifier=${query.identifier}`]),
    ].join(' and ') || 'a query that names no repo'
  );
}
