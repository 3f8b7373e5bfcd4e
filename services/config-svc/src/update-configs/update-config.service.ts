import type { Caller, CodeHostRepo, CodeHostView, RepoPermission } from '@switchyard/code-host';
import { askCodeHost } from '@switchyard/code-host';
import type { CreateUpdateConfig, PatchUpdateConfig, UpdateConfigResource } from '@switchyard/contracts';
import { HttpProblem } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { reachableAccount } from '../accounts/account.service.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { configEvent, publishInTransaction, updateConfigState } from '../events/config-events.ts';
import { updateConfigResource } from '../http/resources.ts';
import { findRepo } from '../repos/repo.repository.ts';
import { recordRepos } from '../repos/repo.service.ts';
import {
  deleteUpdateConfig,
  findUpdateConfig,
  insertUpdateConfig,
  patchUpdateConfig,
  UpdateConfigExistsError,
} from './update-config.repository.ts';
import type { UpdateConfigRow } from './update-config.table.ts';

type Db = Kysely<ConfigDatabase>;

const RANK: Record<RepoPermission, number> = { none: 0, read: 1, write: 2, admin: 3 };

const exists = () => new HttpProblem(400, 'Update config already exists for this repo, package manager, directory and target branch', {});

function requirePermission(repo: CodeHostRepo, needed: 'read' | 'write'): void {
  if (RANK[repo.permission] < RANK[needed]) {
    throw new HttpProblem(
      403,
      needed === 'write'
        ? `Changing update configs of ${repo.fullName} needs write or admin permission on it`
        : `Reading update configs of ${repo.fullName} needs read permission on it`,
    );
  }
}

/**
 * `POST /update_configs`: the account must be one the caller reaches, the repo must belong to it and the
 * caller needs write or admin permission on it (checked with the code host). The config, the repo and
 * account rows it needs and their events are stored in one transaction (one commit a config).
 * @throws HttpProblem 404 (account or repo not reachable), 400 (repo of another account, or a duplicate), 403
 */
export async function createUpdateConfig(
  db: Db,
  view: CodeHostView,
  caller: Caller,
  input: CreateUpdateConfig,
): Promise<UpdateConfigResource> {
  const account = reachableAccount(caller, input['account-id'], input['account-type']);
  if (!account)
    throw new HttpProblem(404, `No ${input['account-type']} account ${input['account-id']} is reachable with this access token`);
  const repo = await askCodeHost(() => view.repo(caller, input['repo-id']));
  if (!repo) throw new HttpProblem(404, `No repo ${input['repo-id']} is visible with this access token`);
  if (repo.owner.id !== account.id) {
    throw new HttpProblem(400, `Repo ${input['repo-id']} does not belong to account ${input['account-id']}`, {
      errors: [{ pointer: '#/repo-id', detail: `does not belong to account ${input['account-id']}` }],
    });
  }
  requirePermission(repo, 'write');
  try {
    const row = await db.transaction().execute(async (trx) => {
      await recordRepos(trx, [repo]);
      const created = await insertUpdateConfig(trx, input);
      await publishInTransaction(trx, [configEvent('update_config.created', updateConfigState(created, account.id))]);
      return created;
    });
    return updateConfigResource(row);
  } catch (error) {
    if (error instanceof UpdateConfigExistsError) throw exists();
    throw error;
  }
}

/**
 * Loads config `id` for a caller who reaches its repo's account and holds `needed` permission on the repo.
 * A config the caller may not see is reported as missing (404), never as someone else's.
 */
async function authorisedConfig(db: Db, view: CodeHostView, caller: Caller, id: number, needed: 'read' | 'write') {
  const row = await findUpdateConfig(db, id);
  const stored = row && (await findRepo(db, row.repo_id));
  const notFound = new HttpProblem(404, `No update config ${id}`);
  if (!row || !stored || !caller.accounts.some((a) => a.id === stored.account_id)) throw notFound;
  const repo = await askCodeHost(() => view.repo(caller, stored.id));
  if (!repo) throw notFound;
  requirePermission(repo, needed);
  return { row, accountId: stored.account_id };
}

/** `GET /update_configs/:id`. @throws HttpProblem 404, 403 */
export async function getUpdateConfig(db: Db, view: CodeHostView, caller: Caller, id: number): Promise<UpdateConfigResource> {
  return updateConfigResource((await authorisedConfig(db, view, caller, id, 'read')).row);
}

/** `PATCH /update_configs/:id`: changes the attributes given; an empty patch changes nothing. @throws HttpProblem 404, 403, 400 */
export async function updateUpdateConfig(
  db: Db,
  view: CodeHostView,
  caller: Caller,
  id: number,
  patch: PatchUpdateConfig,
): Promise<UpdateConfigResource> {
  const { row, accountId } = await authorisedConfig(db, view, caller, id, 'write');
  if (Object.values(patch).every((value) => value === undefined)) return updateConfigResource(row);
  try {
    const updated = await db.transaction().execute(async (trx) => {
      const changed = await patchUpdateConfig(trx, id, patch);
      if (!changed) throw new HttpProblem(404, `No update config ${id}`);
      await publishInTransaction(trx, [configEvent('update_config.updated', updateConfigState(changed, accountId))]);
      return changed;
    });
    return updateConfigResource(updated);
  } catch (error) {
    if (error instanceof UpdateConfigExistsError) throw exists();
    throw error;
  }
}

/** `DELETE /update_configs/:id`. @throws HttpProblem 404, 403 */
export async function removeUpdateConfig(db: Db, view: CodeHostView, caller: Caller, id: number): Promise<void> {
  const { accountId } = await authorisedConfig(db, view, caller, id, 'write');
  await db.transaction().execute(async (trx) => {
    const deleted: UpdateConfigRow | undefined = await deleteUpdateConfig(trx, id);
    if (!deleted) throw new HttpProblem(404, `No update config ${id}`);
    await publishInTransaction(trx, [configEvent('update_config.deleted', updateConfigState(deleted, accountId))]);
  });
}
