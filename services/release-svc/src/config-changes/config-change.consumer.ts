import { CONFIG_STATE_EVENTS } from '@switchyard/contracts';
import { type ConsumerHandle, consumeEvents, handleOnce, type MessageBus } from '@switchyard/messaging';
import type { Kysely } from 'kysely';
import { RELEASE_SCHEMA, type ReleaseDatabase } from '../db/schema.ts';
import { applyConfigChange } from './config-change.service.ts';

/**
 * Consumes, on `queue`, config-svc's state events (accounts, repos, update configs, registry credentials: full state
 * with a revision) into the read model, and the open pull requests a settings change concerns made due
 * (`applyConfigChange`), once per event (`handleOnce`), 32 at a time.
 * @returns the consumer, to cancel on shutdown
 * @throws what `MessageBus.consume` throws
 */
export function consumeConfigState(bus: MessageBus, db: Kysely<ReleaseDatabase>, queue: string): Promise<ConsumerHandle> {
  return consumeEvents(bus, { queue, events: CONFIG_STATE_EVENTS, prefetch: 32 }, async (event) => {
    await handleOnce(db, RELEASE_SCHEMA, event, (trx) => applyConfigChange(trx, event));
  });
}
