import type { Caller, CodeHostView } from '@switchyard/code-host';
import {
  type CreateUpdateConfig,
  type PatchUpdateConfig,
  UpdateConfigCreatedEvent,
  UpdateConfigDeletedEvent,
  UpdateConfigUpdatedEvent,
} from '@switchyard/contracts';
import { AlreadyExists, InvalidInput, NotFound } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { reachableAccount } from '../accounts/account.policy.ts';
import { configOutbox } from '../db/outbox.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { findRepo } from '../repos/repo.repository.ts';
import { syncReposAndAccounts } from '../repos/repo.service.ts';
import { checkConfigDirectory } from './config-directory.service.ts';
import { nextRunOf } from './next-run.policy.ts';
import { type ScheduledUpdateConfig, withNextRun } from './next-run.service.ts';
import { refuseFileOwned, refuseLive, requireConfigPermission } from './update-config.policy.ts';
import {
  deleteUpdateConfig,
  findUpdateConfig,
  insertUpdateConfig,
  patchUpdateConfig,
  UpdateConfigExistsError,
} from './update-config.repository.ts';
import { updateConfigState } from './update-config-event.mapper.ts';

type Db = Kysely<ConfigDatabase>;

/** Runs `change`, turning a taken identity into {@link AlreadyExists} with the original API's detail. */
async function refusingDuplicates<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof UpdateConfigExistsError) {
      throw new AlreadyExists('Update config already exists for this repo, package manager, directory and target branch', {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * `POST /update_configs`: the account must be one the caller reaches, the repo must belong to it, the
 * caller needs write or admin permission on it (checked with the code host) and the directory must hold the package
 * manager's files on the config's branch, its target branch or else the repo's default one (`checkConfigDirectory`,
 * through the code host with the caller's token). The config, the repo and
 * account rows it needs and their events (the account's and repo's, then `update_config.created`, written by one
 * insert) are stored in one transaction (one commit a config). Its `groups` (this service's extension) go into its
 * `settings.groups`, which the event carries.
 * @returns the stored config, with its next run by its account's schedule settings as stored with it
 * @throws InvalidInput naming `/update-schedule` for `live` with a package manager that cannot be watched
 * @throws NotFound when the account or the repo is not one the caller reaches
 * @throws InvalidInput when the repo belongs to another account (its error names `/repo-id`)
 * @throws Forbidden without write permission on the repo
 * @throws ManifestFilesMissing (an InvalidInput naming `/directory`) when the directory lacks the package manager's files
 * @throws AlreadyExists when the repo already has a config for this package manager, directory and target branch
 * @throws Conflict (409) when the repo has a config file (`.github/dependabot.yml`, …): its configs come from there
 * @throws RateLimited or CodeHostUnavailable when the code host cannot answer
 */
export async function createUpdateConfig(
  db: Db,
  view: CodeHostView,
  caller: Caller,
  input: CreateUpdateConfig,
): Promise<ScheduledUpdateConfig> {
  refuseLive(input['update-schedule'], input['package-manager']);
  const account = reachableAccount(caller, input['account-id'], input['account-type']);
  const repo = await view.repo(caller, input['repo-id']);
  if (!repo) throw new NotFound(`No repo ${input['repo-id']} is visible with this access token`);
  if (repo.owner.id !== account.id) {
    throw new InvalidInput(`Repo ${input['repo-id']} does not belong to account ${input['account-id']}`, {
      errors: [{ pointer: '#/repo-id', detail: `does not belong to account ${input['account-id']}` }],
    });
  }
  requireConfigPermission(caller, repo, 'write');
  const stored = await findRepo(db, repo.id);
  refuseFileOwned({ configFile: stored?.using_config_file ? stored.config_file?.path : null, repo: repo.fullName });
  const location = {
    repo,
    packageManager: input['package-manager'],
    directory: input.directory,
    branch: input['target-branch'] ?? repo.defaultBranch,
  };
  await checkConfigDirectory(view, caller, location, 'directory');
  return refusingDuplicates(() =>
    db.transaction().execute(async (trx) => {
      const synced = await syncReposAndAccounts(trx, [repo]);
      const created = await insertUpdateConfig(trx, input);
      await configOutbox.append(trx, [
        ...synced.events,
        configOutbox.event(UpdateConfigCreatedEvent, updateConfigState(created, account.id)),
      ]);
      return { row: created, nextRunAt: nextRunOf(created, synced.schedules.get(account.id), new Date()) };
    }),
  );
}

/**
 * Loads config `id` for a caller who reaches its repo's account and holds `needed` permission on the repo.
 * A config the caller may not see is reported as missing, never as someone else's.
 * @throws NotFound when there is no such config or the caller may not know of it
 * @throws Forbidden without `needed` permission on its repo
 */
async function authorisedConfig(db: Db, view: CodeHostView, caller: Caller, id: number, needed: 'read' | 'write') {
  const row = await findUpdateConfig(db, id);
  const stored = row && (await findRepo(db, row.repo_id));
  const notFound = new NotFound(`No update config ${id}`);
  if (!row || !stored || !caller.accounts.some((a) => a.id === stored.account_id)) throw notFound;
  const repo = await view.repo(caller, stored.id);
  if (!repo) throw notFound;
  requireConfigPermission(caller, repo, needed);
  return { row, accountId: stored.account_id, repo };
}

/**
 * `GET /update_configs/:id`: the config with its next run, for a caller with read permission on its repo.
 * @throws NotFound when there is no such config or the caller may not know of it
 * @throws Forbidden without read permission on its repo
 */
export async function getUpdateConfig(db: Db, view: CodeHostView, caller: Caller, id: number): Promise<ScheduledUpdateConfig> {
  return withNextRun(db, (await authorisedConfig(db, view, caller, id, 'read')).row);
}

/**
 * `PATCH /update_configs/:id`: changes the attributes given (revision + 1, `update_config.updated`); an empty patch
 * changes and publishes nothing. A new `target-branch` (another branch, or null for the repo's default one) must hold
 * the package manager's files in the config's directory, as on create (`checkConfigDirectory`); the package manager and
 * the directory are the config's identity, which a PATCH does not change. `groups` (this service's extension) replaces
 * the config's `settings.groups` (`[]` removes them), which the event carries.
 * @returns the config as it is now, with its next run
 * @throws NotFound when there is no such config or the caller may not know of it
 * @throws Forbidden without write permission on its repo
 * @throws InvalidInput naming `/update-schedule` for `live` with a package manager that cannot be watched
 * @throws ManifestFilesMissing (an InvalidInput naming `/target-branch`) when the new branch lacks the files in the directory
 * @throws AlreadyExists when the new target branch collides with another config of the repo
 * @throws Conflict (409) when the config comes from the repo's config file
 * @throws RateLimited or CodeHostUnavailable when the code host cannot answer
 */
export async function updateUpdateConfig(
  db: Db,
  view: CodeHostView,
  caller: Caller,
  id: number,
  patch: PatchUpdateConfig,
): Promise<ScheduledUpdateConfig> {
  const { row, accountId, repo } = await authorisedConfig(db, view, caller, id, 'write');
  refuseFileOwned({ source: row.source, repo: repo.fullName });
  if (patch['update-schedule'] !== undefined) refuseLive(patch['update-schedule'], row.package_manager);
  if (Object.values(patch).every((value) => value === undefined)) return withNextRun(db, row);
  const branch = patch['target-branch'];
  if (branch !== undefined && branch !== row.target_branch) {
    const location = { repo, packageManager: row.package_manager, directory: row.directory, branch: branch ?? repo.defaultBranch };
    await checkConfigDirectory(view, caller, location, 'target-branch');
  }
  const changed = await refusingDuplicates(() =>
    db.transaction().execute(async (trx) => {
      const changed = await patchUpdateConfig(trx, id, patch);
      if (!changed) throw new NotFound(`No update config ${id}`);
      await configOutbox.append(trx, [configOutbox.event(UpdateConfigUpdatedEvent, updateConfigState(changed, accountId))]);
      return changed;
    }),
  );
  return withNextRun(db, changed);
}

/**
 * `DELETE /update_configs/:id`: deletes the config and publishes `update_config.deleted` with its last state.
 * @throws NotFound when there is no such config or the caller may not know of it
 * @throws Forbidden without write permission on its repo
 * @throws Conflict (409) when the config comes from the repo's config file
 */
export async function removeUpdateConfig(db: Db, view: CodeHostView, caller: Caller, id: number): Promise<void> {
  const { row, accountId, repo } = await authorisedConfig(db, view, caller, id, 'write');
  refuseFileOwned({ source: row.source, repo: repo.fullName });
  await db.transaction().execute(async (trx) => {
    const deleted = await deleteUpdateConfig(trx, id);
    if (!deleted) throw new NotFound(`No update config ${id}`);
    await configOutbox.append(trx, [configOutbox.event(UpdateConfigDeletedEvent, updateConfigState(deleted, accountId))]);
  });
}
