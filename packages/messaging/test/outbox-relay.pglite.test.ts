import type { EventEnvelope } from '@switchyard/contracts';
import { type Database, databaseTarget, migrateToLatest, openDatabase } from '@switchyard/service-kit';
import { waitFor } from '@switchyard/service-kit/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleOnce, processedMessageMigration } from '../src/idempotent-consumer.ts';
import { createInProcessBus } from '../src/in-process-bus.ts';
import { appendToOutbox, outboxMigration, outboxVersionMigration } from '../src/outbox.ts';
import { startOutboxRelay } from '../src/outbox-relay.ts';
import { makeEvent, testLogger } from './support.ts';

const schema = 'relay_test';
let database: Database<unknown>;

beforeAll(async () => {
  database = openDatabase(databaseTarget(undefined, 'memory://', 'x'));
  await migrateToLatest(database.db, schema, {
    '0001_outbox': outboxMigration(schema),
    '0001_outbox_version': outboxVersionMigration(schema),
    '0002_processed_message': processedMessageMigration(schema),
  });
});

afterAll(async () => {
  await database?.close();
});

describe('outbox relay on PGlite in memory', () => {
  it('publishes appended events to an in-process bus, in order, once', async () => {
    const bus = createInProcessBus({ logger: testLogger });
    const received: EventEnvelope[] = [];
    await bus.consume({ queue: 'pglite.all', bindings: ['#'] }, async (event) => {
      received.push(event);
    });
    // Stopped at once: its loop (woken by every append) takes no part, so drain() does all the work below.
    const relay = startOutboxRelay({ db: database.db, schema, bus, logger: testLogger, batchSize: 2, pollIntervalMs: 60_000 });
    try {
      await relay.stop();
      expect(await relay.drain()).toBe(0);
      const events = Array.from({ length: 5 }, (_, i) => makeEvent('book.created', { i, title: `Book ${i}` }));
      await database.db.transaction().execute(async (trx) => {
        await appendToOutbox(trx, schema, events.slice(0, 3));
        await appendToOutbox(trx, schema, events.slice(3));
      });
      expect(await relay.drain()).toBe(5);
      expect(await relay.drain()).toBe(0);
      await waitFor(async () => received.length === 5);
      expect(received).toEqual(events);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from relay_test.outbox where published_at is null`.execute(
        database.db,
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await relay.stop();
      await bus.close();
    }
  });

  it('publishes as soon as the writer commits, long before the safety poll', async () => {
    const bus = createInProcessBus({ logger: testLogger });
    const received: EventEnvelope[] = [];
    await bus.consume({ queue: 'pglite.wake', bindings: ['wake.#'] }, async (event) => {
      received.push(event);
    });
    const relay = startOutboxRelay({ db: database.db, schema, bus, logger: testLogger, pollIntervalMs: 60_000 });
    try {
      // drain() runs after the loop's first batch: from here on, only a wake-up makes the loop look again for 60 s.
      await relay.drain();
      for (const i of [1, 2, 3]) {
        const event = makeEvent('wake.created', { i });
        await database.db.transaction().execute((trx) => appendToOutbox(trx, schema, [event]));
        await waitFor(async () => received.some((e) => e.id === event.id));
      }
      // A rolled-back append woke the relay too; it found nothing to publish.
      const rolledBack = makeEvent('wake.rolled_back', {});
      await expect(
        database.db.transaction().execute(async (trx) => {
          await appendToOutbox(trx, schema, [rolledBack]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const marker = makeEvent('wake.marker', {});
      await appendToOutbox(database.db, schema, [marker]);
      await waitFor(async () => received.some((e) => e.id === marker.id));
      expect(received.map((e) => e.type)).toEqual(['wake.created', 'wake.created', 'wake.created', 'wake.marker']);
    } finally {
      await relay.stop();
      await bus.close();
    }
  });

  it('lets a consumer do its work once per event id with handleOnce on the same single connection', async () => {
    await sql`create table if not exists relay_test.work_done (event_id uuid not null)`.execute(database.db);
    const event = makeEvent('book.created', {});
    const runs = [];
    for (let i = 0; i < 3; i++) {
      runs.push(
        await handleOnce(database.db, schema, event, async (trx) => {
          await sql`insert into relay_test.work_done (event_id) values (${event.id})`.execute(trx);
        }),
      );
    }
    expect(runs).toEqual([true, false, false]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from relay_test.work_done where event_id = ${event.id}`.execute(
      database.db,
    );
    expect(rows[0]?.n).toBe(1);
  });
});
