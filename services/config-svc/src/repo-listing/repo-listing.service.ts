import type { Caller, CodeHostRepo, CodeHostView } from '@switchyard/code-host';
import type { ConfigFileState, ReposQuery } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import { reachableAccount } from '../accounts/account.policy.ts';
import { coverageOf } from '../accounts/app-installation.policy.ts';
import { findInstallationsOfAccount } from '../accounts/app-installation.repository.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { findConfigFiles } from '../repos/repo.repository.ts';
import { recordRepos } from '../repos/repo.service.ts';
import { type ScheduledUpdateConfig, withNextRuns } from '../update-configs/next-run.service.ts';
import { listConfigIdsOfAccount, listUpdateConfigsOfRepos } from '../update-configs/update-config.repository.ts';

type Db = Kysely<ConfigDatabase>;

/**
 * Inactive repos per page: the original API's breaking change of 2019-12-02
 * (https://github.com/dependabot/api-docs, "Get Repos for an account").
 */
export const INACTIVE_PAGE_SIZE = 100;

/**
 * A repo of a {@link RepoPage}: as the code host describes it, with the ids of its update configs (oldest first; none
 * when inactive) and its config file as last read (null: none).
 */
export interface ListedRepo {
  repo: CodeHostRepo;
  /** `installation-state`: its update configs kept while inactive (the App no longer covers it), active again on reinstall. */
  active: boolean;
  configIds: number[];
  configFile: ConfigFileState | null;
}

/** One page of an account's repos. */
export interface RepoPage {
  repos: ListedRepo[];
  /** The update configs of the page's repos with their next runs, ordered by id (the active listing's; empty for inactive repos). */
  configs: ScheduledUpdateConfig[];
  /** The next page number, null on the last page (always null for active repos, which come all at once). */
  next: number | null;
}

/**
 * `GET /repos`: the repos of an account the caller reaches, active (with at least one update config) or inactive, in
 * the name order the code-host view keeps them in. When the code host was just asked (not answered from the cache),
 * its repos and their accounts are copied into the `repo` and `account` tables first, publishing events for the new
 * and changed ones (see the README's "What a GET writes"). Inactive repos come {@link INACTIVE_PAGE_SIZE} a page with
 * the next page number (null on the last page); active ones all at once (`page` is accepted and ignored, as the
 * original's dashboard sent it), with their update configs and each config's next run.
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

  // Active: the repo has update configs and, when the App's installations on the account are known, one covers it.
  const covered = coverageOf(await findInstallationsOfAccount(db, account.id)) ?? (() => true);
  const isActive = (repo: CodeHostRepo) => configIds.has(repo.id) && covered(repo.id);
  const active = query['installation-state'] === 'active';
  const selected = repos.filter((repo) => isActive(repo) === active);
  const page = active ? selected : selected.slice((query.page - 1) * INACTIVE_PAGE_SIZE, query.page * INACTIVE_PAGE_SIZE);
  const next = !active && query.page * INACTIVE_PAGE_SIZE < selected.length ? query.page + 1 : null;
  const configs = active
    ? await withNextRuns(
        db,
        await listUpdateConfigsOfRepos(
          db,
          page.map((repo) => repo.id),
        ),
      )
    : [];
  const files = await findConfigFiles(
    db,
    page.map((repo) => repo.id),
  );
  return {
    repos: page.map((repo) => ({ repo, active, configIds: configIds.get(repo.id) ?? [], configFile: files.get(repo.id) ?? null })),
    configs,
    next,
  };
}
