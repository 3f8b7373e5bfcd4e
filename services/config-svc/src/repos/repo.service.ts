import type { Caller, CodeHostRepo, CodeHostView } from '@switchyard/code-host';
import type { ReposQuery } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import { accountEvents } from '../accounts/account.events.ts';
import { type AccountSchedule, syncAccounts } from '../accounts/account.repository.ts';
import { reachableAccount } from '../accounts/account.service.ts';
import { configOutbox } from '../db/outbox.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { listConfigIdsOfAccount, listUpdateConfigsOfRepos } from '../update-configs/update-config.repository.ts';
import type { UpdateConfigRow } from '../update-configs/update-config.table.ts';
import { repoEvents } from './repo.events.ts';
import { syncRepos } from './repo.repository.ts';

type Db = Kysely<ConfigDatabase>;

/**
 * Inactive repos per page: the original API's breaking change of 2019-12-02
 * (https://github.com/dependabot/api-docs, "Get Repos for an account").
 */
export const INACTIVE_PAGE_SIZE = 100;

/** A repo of a {@link RepoPage}: as the code host describes it, with the ids of its update configs (oldest first; none when inactive). */
export interface ListedRepo {
  repo: CodeHostRepo;
  configIds: number[];
}

/** One page of an account's repos. */
export interface RepoPage {
  repos: ListedRepo[];
  /** The update configs of the page's repos, ordered by id (the active listing's; empty for inactive repos). */
  configs: UpdateConfigRow[];
  /** The next page number, null on the last page (always null for active repos, which come all at once). */
  next: number | null;
}

/** An event {@link syncReposAndAccounts} leaves to its caller to append (with its own, in one insert). */
export type RepoSyncEvent = ReturnType<typeof accountEvents>[number] | ReturnType<typeof repoEvents>[number];

/** What {@link syncReposAndAccounts} did: the events it owes, and the schedule settings of the repos' accounts by id. */
export interface SyncedRepos {
  /** `account.*` events of the accounts it inserted or changed, then `repo.*` events of the repos, in that order. */
  events: RepoSyncEvent[];
  schedules: Map<number, AccountSchedule>;
}

/**
 * Stores repos the code host just reported (their accounts first, see `syncAccounts` and `syncRepos`) inside the
 * caller's transaction `trx`, and returns the `account.*` / `repo.*` events of the new and changed ones for the caller
 * to append to the outbox in the same transaction, with the accounts' schedule settings.
 */
export async function syncReposAndAccounts(trx: Db, repos: readonly CodeHostRepo[]): Promise<SyncedRepos> {
  if (repos.length === 0) return { events: [], schedules: new Map() };
  const accounts = await syncAccounts(trx, [...new Map(repos.map((r) => [r.owner.id, r.owner])).values()]);
  const changed = await syncRepos(trx, repos);
  return { events: [...accountEvents(accounts.changed), ...repoEvents(changed)], schedules: accounts.schedules };
}

/**
 * Stores repos the code host just reported (their accounts first), with `repo.created` / `repo.updated` events
 * (and the accounts' events) for the new and changed ones, inside the caller's transaction `trx`.
 */
export async function recordRepos(trx: Db, repos: readonly CodeHostRepo[]): Promise<void> {
  await configOutbox.append(trx, (await syncReposAndAccounts(trx, repos)).events);
}

/**
 * `GET /repos`: the repos of an account the caller reaches, active (with at least one update config) or inactive, in
 * the name order the code-host view keeps them in. When the code host was just asked (not answered from the cache),
 * its repos and their accounts are copied into the `repo` and `account` tables first, publishing events for the new
 * and changed ones (see the README's "What a GET writes"). Inactive repos come {@link INACTIVE_PAGE_SIZE} a page with
 * the next page number (null on the last page); active ones all at once (`page` is accepted and ignored, as the
 * original's dashboard sent it), with their update configs.
 * @throws NotFound when the account is not one the caller reaches
 * @throws the code host's failures as the view reports them (`Unauthenticated`, `RateLimited`, `CodeHostUnavailable` …)
 */
export async function syncAndListRepos(db: Db, view: CodeHostView, caller: Caller, query: ReposQuery): Promise<RepoPage> {
  const account = reachableAccount(caller, query['account-id'], query['account-type']);
  const { repos, fresh } = await view.listRepos(caller, account);
  if (fresh) await db.transaction().execute((trx) => recordRepos(trx, repos));

  const configIds = new Map<number, number[]>();
  for (const { repo_id, id } of await listConfigIdsOfAccount(db, account.id))
    configIds.set(repo_id, [...(configIds.get(repo_id) ?? []), id]);

  const active = query['installation-state'] === 'active';
  const selected = repos.filter((repo) => configIds.has(repo.id) === active);
  const page = active ? selected : selected.slice((query.page - 1) * INACTIVE_PAGE_SIZE, query.page * INACTIVE_PAGE_SIZE);
  const next = !active && query.page * INACTIVE_PAGE_SIZE < selected.length ? query.page + 1 : null;
  const configs = active
    ? await listUpdateConfigsOfRepos(
        db,
        page.map((repo) => repo.id),
      )
    : [];
  return { repos: page.map((repo) => ({ repo, configIds: configIds.get(repo.id) ?? [] })), configs, next };
}
