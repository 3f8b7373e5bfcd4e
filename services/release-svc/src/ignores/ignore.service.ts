import { type Caller, type CodeHostView, requireRepoPermission } from '@switchyard/code-host';
import { NotFound } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { setIgnored } from '../jobs/job.repository.ts';
import { removeConfigIgnore } from '../read-model/config-ignore.repository.ts';
import { findScanTargets } from '../read-model/read-model.repository.ts';

/**
 * `DELETE /update_configs/{id}/ignores/{ignoreId}` (this service's extension): undoes an ignore a person made on the
 * code host (a command, or a pull request closed unmerged), for a caller with write permission on the config's repo.
 * An ignore of one version made by closing a pull request also frees that version: the next run may propose it again
 * (its job stays closed). The config's ignores are published again (`update_config.ignores_changed`). A config file's
 * own ignores are not here: the file is changed instead.
 * @throws NotFound when there is no such config or ignore, or the caller may not know of them
 * @throws Forbidden without write permission on the config's repo
 */
export async function removeIgnore(
  db: Kysely<ReleaseDatabase>,
  view: CodeHostView,
  caller: Caller,
  configId: number,
  ignoreId: number,
): Promise<void> {
  const target = (await findScanTargets(db, [configId])).get(configId);
  const notFound = new NotFound(`No ignore ${ignoreId} of update config ${configId}`);
  if (!target || target.config.deleted || !caller.accounts.some((a) => a.id === target.config.accountId)) throw notFound;
  const repo = await view.repo(caller, target.config.repoId);
  if (!repo) throw notFound;
  requireRepoPermission(caller, repo, 'write', `Changing the ignores of ${repo.fullName}`);
  await db.transaction().execute(async (trx) => {
    const removed = await removeConfigIgnore(trx, configId, ignoreId);
    if (!removed) throw notFound;
    if (removed.kind === 'version' && removed.job_id !== null) await setIgnored(trx, removed.job_id, false);
  });
}
