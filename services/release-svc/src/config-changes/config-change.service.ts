import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { makeOpenJobsDue } from '../jobs/job.repository.ts';
import { applyConfigEvent, type ConfigEvent } from '../read-model/read-model.service.ts';

/**
 * One of config-svc's state events, in the caller's transaction: applied to the read model (`applyConfigEvent`: by
 * revision, so duplicates and late events change nothing), and, for a change of an update config or of an account's
 * settings, the open pull requests it concerns made due at once, so that the next look applies the new settings (the
 * automerge rules, the target branch, `automatically-rebase-prs`, `create-merge-commits`) within one round of the worker's
 * pull-request loop.
 */
export async function applyConfigChange(trx: Kysely<ReleaseDatabase>, event: ConfigEvent): Promise<void> {
  await applyConfigEvent(trx, event);
  if (event.type === 'update_config.created' || event.type === 'update_config.updated')
    await makeOpenJobsDue(trx, { configId: event.data.id });
  if (event.type === 'account.updated') await makeOpenJobsDue(trx, { accountId: event.data.id });
}
