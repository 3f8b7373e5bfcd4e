import type { Caller, CodeHostRepo, CodeHostView } from '@switchyard/code-host';
import { askCodeHost } from '@switchyard/code-host';
import type { RepoResource, ReposQuery, UpdateConfigResource } from '@switchyard/contracts';
import { HttpProblem } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { reachableAccount, recordAccounts } from '../accounts/account.service.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { publishInTransaction, repoEvents } from '../events/config-events.ts';
import { repoResource, updateConfigResource } from '../http/resources.ts';
import { listConfigIdsOfAccount, listUpdateConfigsOfRepos } from '../update-configs/update-config.repository.ts';
import { syncRepos } from './repo.repository.ts';

type Db = Kysely<ConfigDatabase>;

/** Inactive repos per page (seeds/000 "Limits"; the breaking change of 2019-12-02). */
export const INACTIVE_PAGE_SIZE = 100;

/** A `GET /repos` answer before it is wrapped in the document. */
export interface RepoPage {
  data: RepoResource[];
  included: UpdateConfigResource[];
  next: number | null;
}

/**
 * Stores repos the code host just reported (their accounts first), with events for the new and
 * changed ones, inside the caller's transaction `trx`.
 */
export async function recordRepos(trx: Db, repos: readonly CodeHostRepo[]): Promise<void> {
  if (repos.length === 0) return;
  await recordAccounts(trx, [...new Map(repos.map((r) => [r.owner.id, r.owner])).values()]);
  await publishInTransaction(trx, repoEvents(await syncRepos(trx, repos)));
}

/**
 * `GET /repos`: the repos of an account the caller reaches, active (with at least one update config) or
 * inactive, in the name order the code-host view keeps them in. Inactive ones come {@link INACTIVE_PAGE_SIZE} a page with the next page
 * number (null on the last page); active ones all at once (`page` is accepted and ignored, as the
 * original's dashboard sent it). `included` holds the update configs of the page's repos.
 * @throws HttpProblem 404 when the account is not one the caller reaches
 */
export async function listRepos(db: Db, view: CodeHostView, caller: Caller, query: ReposQuery): Promise<RepoPage> {
  const account = reachableAccount(caller, query['account-id'], query['account-type']);
  if (!account)
    throw new HttpProblem(404, `No ${query['account-type']} account ${query['account-id']} is reachable with this access token`);
  const { repos, fresh } = await askCodeHost(() => view.listRepos(caller, account));
  if (fresh) await db.transaction().execute((trx) => recordRepos(trx, repos));

  const configIds = new Map<number, number[]>();
  for (const { repo_id, id } of await listConfigIdsOfAccount(db, account.id))
    configIds.set(repo_id, [...(configIds.get(repo_id) ?? []), id]);

  const active = query['installation-state'] === 'active';
  const selected = repos.filter((repo) => configIds.has(repo.id) === active);
  const page = active ? selected : selected.slice((query.page - 1) * INACTIVE_PAGE_SIZE, query.page * INACTIVE_PAGE_SIZE);
  const next = !active && query.page * INACTIVE_PAGE_SIZE < selected.length ? query.page + 1 : null;
  const included = active
    ? await listUpdateConfigsOfRepos(
        db,
        page.map((repo) => repo.id),
      )
    : [];

  return {
    data: page.map((repo) => repoResource(repo, configIds.get(repo.id) ?? [])),
    included: included.map(updateConfigResource),
    next,
  };
}
