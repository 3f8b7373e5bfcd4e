import { UpdateRunRequestedEvent } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import { releaseOutbox } from '../db/outbox.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import { insertRunOnce, type NewUpdateRun } from './update-run.repository.ts';
import type { UpdateRunRow } from './update-run.table.ts';

/**
 * How every trigger but a release notification starts work (a schedule slot, the registry watch, "bump now"): it
 * records a run of one config with its trigger and its `update_run.requested` event in the caller's transaction (the
 * transactional outbox), and the pipeline (`pipeline/run.service.ts`, any worker) does the rest. Nothing is recorded when
 * the config already has a run with that trigger key: a slot, a version seen, a notification each run once.
 * @returns the new run, or undefined when it existed already
 * @throws InvalidEventError (never for rows this writes) and the database's errors
 */
export async function requestRun(trx: Kysely<ReleaseDatabase>, run: NewUpdateRun): Promise<UpdateRunRow | undefined> {
  const row = await insertRunOnce(trx, run);
  if (!row) return undefined;
  await releaseOutbox.append(trx, [
    releaseOutbox.event(UpdateRunRequestedEvent, { id: row.id, updateConfigId: row.update_config_id, trigger: row.trigger }),
  ]);
  return row;
}
