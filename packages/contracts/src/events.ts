import { z } from 'zod';

/**
 * The envelope of every domain event on the bus (DESIGN.md, "Data and events"): `id` a UUID that
 * consumers deduplicate on, `type` the routing key (`update_config.created`), `source` the producing
 * service (`config-svc`), `time` when the change was committed (RFC 3339), `data` the event's payload,
 * for state events the full state of the resource after the change.
 */
export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, 'must be a dotted lower-case name, e.g. update_config.created'),
  source: z.string().min(1).max(100),
  time: z.iso.datetime({ offset: true }),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof EventEnvelope>, 'data'> & { data: T };

/** The durable topic exchange every service publishes its domain events to. */
export const DOMAIN_EVENTS_EXCHANGE = 'switchyard.events';
