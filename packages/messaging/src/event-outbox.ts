import { randomUUID } from 'node:crypto';
import type { EventDefinition, EventEnvelope, EventPayload } from '@switchyard/contracts';
import type { SqlExecutor } from '@switchyard/service-kit';
import type { z } from 'zod';
import { InvalidEventError } from './errors.ts';
import { appendToOutbox } from './outbox.ts';

/** A catalogued event ready to be written: its definition and its payload (see {@link EventOutbox.event}). */
export interface PendingEvent<D extends EventDefinition = EventDefinition> {
  readonly definition: D;
  readonly data: z.input<D['schema']>;
}

/**
 * A producing service's side of the transactional outbox, limited to the events it declared: `append` writes
 * events in the caller's transaction, so they are published if and only if the change they describe commits.
 */
export interface EventOutbox<Ds extends readonly EventDefinition[]> {
  /** Pairs a definition with its payload, for {@link EventOutbox.append} of several events of different types. */
  event<D extends Ds[number]>(definition: D, data: z.input<D['schema']>): PendingEvent<D>;
  /**
   * Writes `events` to the outbox in this order (their publication order), each stamped with a new UUID, the
   * producer's `source`, the definition's `type` and `version`, and the time now.
   * @param trx the transaction of the change the events describe
   * @throws InvalidEventError when an event is not one this outbox declared or its payload (as JSON) fails its schema; nothing is written
   * @throws the database's error
   */
  append(trx: SqlExecutor, events: readonly PendingEvent<Ds[number]>[]): Promise<void>;
}

/** Options of {@link eventOutbox}. */
export interface EventOutboxOptions<Ds extends readonly EventDefinition[]> {
  /** The schema holding `outbox` (see `outboxMigration`). */
  schema: string;
  /** The `source` of every event: the producing service's name, e.g. `config-svc`. */
  source: string;
  /** The catalogued events this producer may write (e.g. `CONFIG_EVENTS` of `@switchyard/contracts`). */
  events: Ds;
}

/**
 * The outbox writer of a producer that accepts only the catalogued events it declares, typed by their
 * definitions: `outbox.append(trx, [outbox.event(UpdateConfigCreatedEvent, state)])`. Each payload is checked
 * as it will travel (its JSON form) against the definition's schema before anything is written.
 */
export function eventOutbox<const Ds extends readonly EventDefinition[]>(options: EventOutboxOptions<Ds>): EventOutbox<Ds> {
  const declared = new Set<EventDefinition>(options.events);
  return {
    event: (definition, data) => ({ definition, data }),
    async append(trx, events) {
      if (events.length === 0) return;
      const time = new Date().toISOString();
      const envelopes = events.map(({ definition, data }, index): EventEnvelope => {
        if (!declared.has(definition)) {
          throw new InvalidEventError(index, [`${definition.type} is not an event ${options.source} declared`]);
        }
        const wire: EventPayload<typeof definition> = JSON.parse(JSON.stringify(data ?? null));
        const checked = definition.schema.safeParse(wire);
        if (!checked.success) {
          throw new InvalidEventError(
            index,
            checked.error.issues.map((issue) => `data.${issue.path.join('.')}: ${issue.message}`),
          );
        }
        return { id: randomUUID(), type: definition.type, version: definition.version, source: options.source, time, data: wire };
      });
      await appendToOutbox(trx, options.schema, envelopes);
    },
  };
}
