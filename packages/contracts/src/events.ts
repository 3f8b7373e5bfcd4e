import { z } from 'zod';

/**
 * The envelope of every domain event on the bus: `id` a UUID that consumers deduplicate on, `type` the
 * routing key (`update_config.created`), `version` the version of the payload's schema for that type (1 when
 * absent: events written before versions were carried), `source` the producing service (`config-svc`), `time`
 * when the change was committed (RFC 3339), `data` the event's payload, for state events the full state of
 * the resource after the change.
 */
export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, 'must be a dotted lower-case name, e.g. update_config.created'),
  version: z.int().min(1).max(1_000).optional(),
  source: z.string().min(1).max(100),
  time: z.iso.datetime({ offset: true }),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof EventEnvelope>, 'data'> & { data: T };

/** The durable topic exchange every service publishes its domain events to. */
export const DOMAIN_EVENTS_EXCHANGE = 'switchyard.events';

/**
 * One entry of the event catalogue: a domain event's `type` (its routing key), the `version` of its payload
 * and the zod `schema` of that payload. Producers can only write catalogued events, and consumers receive the
 * payload parsed with `schema` (see `@switchyard/messaging`'s outbox writer and `consumeEvents`).
 */
export interface EventDefinition<Type extends string = string, Schema extends z.ZodType = z.ZodType> {
  readonly type: Type;
  readonly version: number;
  readonly schema: Schema;
}

/** The payload of a catalogued event, as its schema outputs it. */
export type EventPayload<D extends EventDefinition> = z.output<D['schema']>;

/** An envelope of the catalogued event `D`, with its parsed payload. */
export type EventOf<D extends EventDefinition> = EventEnvelope<EventPayload<D>> & { type: D['type'] };

/** The union of {@link EventOf} over a list of definitions: what a consumer of several event types receives. */
export type EventOfAny<Ds extends readonly EventDefinition[]> = { [K in keyof Ds]: EventOf<Ds[K]> }[number];

const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/**
 * Defines a catalogued domain event.
 * @param type the routing key, a dotted lower-case name (`update_config.created`)
 * @param schema the payload's schema
 * @param version the payload's version (default 1); raise it on a change a consumer of the old one cannot read
 * @throws TypeError for a malformed type or version (a programming error, thrown when the module loads)
 */
export function defineEvent<const Type extends string, Schema extends z.ZodType>(
  type: Type,
  schema: Schema,
  version = 1,
): EventDefinition<Type, Schema> {
  if (!EVENT_TYPE.test(type)) throw new TypeError(`event type must be a dotted lower-case name, got ${JSON.stringify(type)}`);
  if (!Number.isInteger(version) || version < 1) throw new TypeError(`event version must be a positive integer, got ${version}`);
  return Object.freeze({ type, version, schema });
}
