import type { CodeHostRepo } from '@switchyard/code-host';
import type { Kysely } from 'kysely';
import type { AccountSchedule } from '../accounts/account.policy.ts';
import { syncAccounts } from '../accounts/account.repository.ts';
import { accountEvents } from '../accounts/account-event.mapper.ts';
import { configOutbox } from '../db/outbox.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { syncRepos } from './repo.repository.ts';
import { repoEvents } from './repo-event.mapper.ts';

type Db = Kysely<ConfigDatabase>;

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
