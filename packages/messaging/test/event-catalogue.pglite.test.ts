import { randomUUID } from 'node:crypto';
import { defineEvent, type EventEnvelope } from '@switchyard/contracts';
import { type Database, databaseTarget, migrateToLatest, openDatabase } from '@switchyard/service-kit';
import { waitFor } from '@switchyard/service-kit/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ConsumerSpec, EventHandler, MessageBus } from '../src/bus.ts';
import { consumeEvents } from '../src/consume-events.ts';
import { InvalidEventError, UnprocessableEventError } from '../src/errors.ts';
import { eventOutbox } from '../src/event-outbox.ts';
import { createInProcessBus } from '../src/in-process-bus.ts';
import { outboxMigration, outboxVersionMigration } from '../src/outbox.ts';
import { startOutboxRelay } from '../src/outbox-relay.ts';
import { testLogger } from './support.ts';

const schema = 'catalogue_test';
const ShelfAdded = defineEvent('shelf.added', z.object({ id: z.int(), name: z.string(), addedAt: z.iso.datetime() }));
const ShelfRemoved = defineEvent('shelf.removed', z.object({ id: z.int() }), 2);
const Unrelated = defineEvent('lamp.lit', z.object({ watts: z.number() }));
const outbox = eventOutbox({ schema, source: 'shelf-svc', events: [ShelfAdded, ShelfRemoved] });
let database: Database<unknown>;

beforeAll(async () => {
  database = openDatabase(databaseTarget(undefined, 'memory://', 'x'));
  await migrateToLatest(database.db, schema, { '0001': outboxMigration(schema), '0002': outboxVersionMigration(schema) });
});

afterAll(async () => {
  await database?.close();
});

const stored = async () =>
  (
    await sql<{
      type: string;
      version: number;
      source: string;
      data: unknown;
    }>`select type, version, source, data from catalogue_test.outbox
      order by seq`.execute(database.db)
  ).rows;

describe('defineEvent', () => {
  it('refuses a type that cannot be a routing key and a version below 1', () => {
    expect(() => defineEvent('Shelf Added', z.object({}))).toThrow(TypeError);
    expect(() => defineEvent('shelf.added', z.object({}), 0)).toThrow(TypeError);
  });
});

describe('eventOutbox', () => {
  it('writes declared events with their type, version, source and payload as JSON, in order', async () => {
    const addedAt = new Date('2026-11-23T10:00:00.000Z');
    await database.db
      .transaction()
      .execute((trx) =>
        outbox.append(trx, [
          outbox.event(ShelfAdded, { id: 1, name: 'Poetry', addedAt: addedAt.toISOString() }),
          outbox.event(ShelfRemoved, { id: 1 }),
        ]),
      );
    expect(await stored()).toEqual([
      { type: 'shelf.added', version: 1, source: 'shelf-svc', data: { id: 1, name: 'Poetry', addedAt: '2026-11-23T10:00:00.000Z' } },
      { type: 'shelf.removed', version: 2, source: 'shelf-svc', data: { id: 1 } },
    ]);
  });

  it('refuses an event it did not declare and a payload that fails its schema, writing nothing of the batch', async () => {
    const before = (await stored()).length;
    const undeclared = outbox.event(Unrelated as never, { watts: 40 } as never);
    await expect(outbox.append(database.db, [outbox.event(ShelfRemoved, { id: 2 }), undeclared])).rejects.toThrow(
      /lamp\.lit is not an event shelf-svc declared/,
    );
    await expect(outbox.append(database.db, [outbox.event(ShelfRemoved, { id: 'two' as unknown as number })])).rejects.toBeInstanceOf(
      InvalidEventError,
    );
    expect((await stored()).length).toBe(before);
  });
});

describe('consumeEvents', () => {
  const envelope = (type: string, data: unknown, version?: number): EventEnvelope => ({
    id: randomUUID(),
    type,
    ...(version === undefined ? {} : { version }),
    source: 'shelf-svc',
    time: new Date().toISOString(),
    data,
  });

  it('hands the handler parsed, typed payloads of the types it binds, relayed from the outbox', async () => {
    const bus = createInProcessBus({ logger: testLogger });
    const names: string[] = [];
    await consumeEvents(bus, { queue: 'shelves', events: [ShelfAdded, ShelfRemoved] }, async (event) => {
      if (event.type === 'shelf.added') names.push(event.data.name);
      else names.push(`removed ${event.data.id}`);
    });
    const relay = startOutboxRelay({ db: database.db, schema, bus, logger: testLogger, pollIntervalMs: 60_000 });
    try {
      await relay.drain();
      await waitFor(async () => names.length === 2);
      expect(names).toEqual(['Poetry', 'removed 1']);
    } finally {
      await relay.stop();
      await bus.close();
    }
  });

  it('parks at once, with the reason, an invalid payload and an unknown payload version', async () => {
    const bus = createInProcessBus({ logger: testLogger });
    let handled = 0;
    await consumeEvents(bus, { queue: 'strict', events: [ShelfAdded, ShelfRemoved], maxAttempts: 5 }, async () => {
      handled += 1;
    });
    await bus.publish([
      envelope('shelf.added', { id: 'x' }),
      envelope('shelf.removed', { id: 3 }, 1),
      envelope('shelf.removed', { id: 3 }, 2),
      envelope('shelf.added', { id: 4, name: 'Maps', addedAt: new Date().toISOString() }),
    ]);
    await waitFor(async () => bus.parked('strict').length === 2 && handled === 2);
    const parked = bus.parked('strict');
    expect(parked.map((message) => [message.reason, message.attempts])).toEqual([
      ['unprocessable-event', 1],
      ['unprocessable-event', 1],
    ]);
    expect(parked[0]?.error).toMatch(/shelf\.added payload is invalid: data\.id/);
    expect(parked[1]?.error).toMatch(/shelf\.removed version 1 is unknown here \(this consumer reads version 2\)/);
    await bus.close();
  });

  it('binds exactly the types it consumes, and refuses as unprocessable a type delivered through an older binding', async () => {
    let spec: ConsumerSpec | undefined;
    let deliver: EventHandler | undefined;
    const bus = {
      consume: async (given: ConsumerSpec, handler: EventHandler) => {
        spec = given;
        deliver = handler;
        return { queue: given.queue, cancel: async () => {} };
      },
    } as Pick<MessageBus, 'consume'> as MessageBus;
    await consumeEvents(bus, { queue: 'narrow', events: [ShelfAdded, ShelfRemoved] }, async () => {});
    expect(spec?.bindings).toEqual(['shelf.added', 'shelf.removed']);
    await expect(deliver?.(envelope('lamp.lit', { watts: 40 }), { attempt: 1, queue: 'narrow', redelivered: false })).rejects.toThrow(
      new UnprocessableEventError('lamp.lit is not an event narrow consumes'),
    );
  });
});
