import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@switchyard/contracts';
import { appendToOutbox } from '@switchyard/messaging';
import type { Kysely } from 'kysely';
import { RELEASE_SCHEMA, type ReleaseDatabase } from './db/schema.ts';

/** The `source` of every event release-svc publishes. */
export const EVENT_SOURCE = 'release-svc';

/** The event types release-svc publishes. */
export type ReleaseEventType = 'release_notification.received' | 'release_notification.scan_requested' | 'pull_request_job.created';

/** An event of release-svc with a new id, stamped now. */
export function releaseEvent<T>(type: ReleaseEventType, data: T): EventEnvelope<T> {
  return { id: randomUUID(), type, source: EVENT_SOURCE, time: new Date().toISOString(), data };
}

/** Adds events to the `release` outbox in the caller's transaction: published if and only if it commits. */
export async function appendEvents(trx: Kysely<ReleaseDatabase>, events: readonly EventEnvelope[]): Promise<void> {
  await appendToOutbox(trx as never, RELEASE_SCHEMA, events);
}
