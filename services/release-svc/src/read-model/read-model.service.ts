import type { CONFIG_STATE_EVENTS, EventOfAny } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { safeNextSlot, scheduleSettingsOf } from './next-run.policy.ts';
import {
  findSchedules,
  setNextRunAt,
  upsertAccount,
  upsertRegistryCredential,
  upsertRepo,
  upsertUpdateConfig,
} from './read-model.repository.ts';

/** An event of config-svc the read model follows, its payload parsed (see `consumeEvents`). */
export type ConfigEvent = EventOfAny<typeof CONFIG_STATE_EVENTS>;

/**
 * Applies one of config-svc's state events to the read model, in the caller's transaction. Each event
 * carries the full state and a `revision`: a row is written only when the event's revision is newer
 * than the stored one, so duplicates and events that arrive out of order change nothing. An account's or a config's
 * change sets the next scheduled run of the configs it concerns again (`refreshNextRuns`), as of `now`.
 */
export async function applyConfigEvent(trx: Kysely<ReleaseDatabase>, event: ConfigEvent, now: Date = new Date()): Promise<void> {
  switch (event.type) {
    case 'account.created':
    case 'account.updated':
      await upsertAccount(trx, event.data);
      await refreshNextRuns(trx, { accountId: event.data.id }, now);
      return;
    case 'repo.created':
    case 'repo.updated':
      return upsertRepo(trx, event.data);
    case 'update_config.created':
    case 'update_config.updated':
      await upsertUpdateConfig(trx, event.data, false);
      await refreshNextRuns(trx, { configId: event.data.id }, now);
      return;
    case 'update_config.deleted':
      return upsertUpdateConfig(trx, event.data, true);
    case 'registry_credential.saved':
      return upsertRegistryCredential(trx, event.data, false);
    case 'registry_credential.deleted':
      return upsertRegistryCredential(trx, event.data, true);
  }
}

/**
 * Sets `next_run_at` of the configs `which` names (one config, or every config of an account) to their schedule's next
 * slot after `now`, in the caller's transaction. A config whose next run is already due (at or before `now`, not
 * taken by the scheduler yet) keeps it: that slot still runs, and the scheduler reckons the one after with the new
 * settings. Deleted configs are left alone; a `live` one is due at once (its initial run, see `scheduleDueRuns`).
 */
export async function refreshNextRuns(
  trx: Kysely<ReleaseDatabase>,
  which: { configId: number } | { accountId: number },
  now: Date,
): Promise<void> {
  for (const row of await findSchedules(trx, which)) {
    if (row.next_run_at !== null && row.next_run_at <= now) continue;
    // A `live` config is due at once: the scheduler gives it its initial run (once), which lists what the watch polls.
    const next = row.update_schedule === 'live' ? now : safeNextSlot(row.update_schedule, scheduleSettingsOf(row), now);
    if (next?.getTime() === row.next_run_at?.getTime()) continue;
    await setNextRunAt(trx, row.id, next);
  }
}
