import type { CONFIG_STATE_EVENTS, EventOfAny } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { refreshNextRuns } from '../update-runs/next-run.ts';
import { upsertAccount, upsertRegistryCredential, upsertRepo, upsertUpdateConfig } from './read-model.repository.ts';

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
