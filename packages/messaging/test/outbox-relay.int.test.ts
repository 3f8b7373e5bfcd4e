import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EventEnvelope } from '@switchyard/contracts';
import { type Database, migrateToLatest, openDatabase } from '@switchyard/service-kit';
import { createTestDatabase, type TestDatabase, waitFor } from '@switchyard/service-kit/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AmqpBus, createAmqpBus } from '../src/amqp-bus.ts';
import type { ConsumerSpec, MessageBus } from '../src/bus.ts';
import { appendToOutbox, outboxMigration, outboxVersionMigration } from '../src/outbox.ts';
import { startOutboxRelay } from '../src/outbox-relay.ts';
import { type BrokerProbe, openBrokerProbe } from './amqp-support.ts';
import { makeEvent, testLogger, uniqueSuffix } from './support.ts';

const prefix = `test.outbox.${uniqueSuffix()}`;
const exchange = `${prefix}.events`;
const specs: ConsumerSpec[] = [];
let testDatabase: TestDatabase;
let database: Database<unknown>;
let bus: AmqpBus;
let probe: BrokerProbe;

/** Migrates a schema of its own for one test, so relays of different tests never see each other's rows. */
async function outboxSchema(schema: string): Promise<string> {
  await migrateToLatest(database.db, schema, {
    '0001_outbox': outboxMigration(schema),
    '0002_outbox_version': outboxVersionMigration(schema),
  });
  return schema;
}

/** Consumes `pattern` on a queue of its own and collects what arrives (every delivery, duplicates included). */
async function collect(name: string, pattern: string): Promise<EventEnvelope[]> {
  const received: EventEnvelope[] = [];
  const spec = { queue: `${prefix}.${name}`, bindings: [pattern], prefetch: 50 };
  specs.push(spec);
  await bus.consume(spec, async (event) => {
    received.push(event);
  });
  return received;
}

async function unpublished(schema: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(schema, 'outbox')} where published_at is null`.execute(
    database.db,
  );
  return rows[0]?.n ?? -1;
}

/** The backends of `schema`'s relays that LISTEN now (their last statement was the LISTEN). */
async function listeningPids(schema: string): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity
    where datname = current_database() and application_name = ${`outbox-relay:${schema}`} and query ilike 'listen%'`.execute(database.db);
  return rows.map((row) => row.pid);
}

/** The connections of `schema`'s relays, listening or not. */
async function relayConnections(schema: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and application_name = ${`outbox-relay:${schema}`}`.execute(database.db);
  return rows[0]?.n ?? -1;
}

/** Commits `event` in a transaction of its own and waits until it arrived in `received`. */
async function commitAndReceive(schema: string, received: EventEnvelope[], event: EventEnvelope): Promise<void> {
  await database.db.transaction().execute((trx) => appendToOutbox(trx, schema, [event]));
  await waitFor(async () => received.some((e) => e.id === event.id));
}

beforeAll(async () => {
  testDatabase = await createTestDatabase(inject('databaseUrl'), 'messaging_outbox');
  database = openDatabase({ kind: 'postgres', url: testDatabase.url, poolSize: 10 });
  bus = await createAmqpBus({ url: inject('amqpUrl'), exchange, logger: testLogger });
  probe = await openBrokerProbe(inject('amqpUrl'));
});

afterAll(async () => {
  await bus?.close();
  await probe?.cleanUp(exchange, specs);
  await database?.close();
  await testDatabase?.drop();
});

describe('outbox relay on PostgreSQL and RabbitMQ', () => {
  it('publishes events of committed transactions, never those of rolled-back ones', async () => {
    const schema = await outboxSchema('relay_commit');
    const received = await collect('commit', 'commit_test.*');
    const relay = startOutboxRelay({ db: database.db, schema, bus, logger: testLogger, pollIntervalMs: 20 });
    try {
      const committed = makeEvent('commit_test.committed', { n: 1 });
      await database.db.transaction().execute((trx) => appendToOutbox(trx, schema, [committed]));
      const rolledBack = makeEvent('commit_test.rolled_back', { n: 2 });
      await expect(
        database.db.transaction().execute(async (trx) => {
          await appendToOutbox(trx, schema, [rolledBack]);
          throw new Error('the business change failed');
        }),
      ).rejects.toThrow('the business change failed');
      const marker = makeEvent('commit_test.marker', { n: 3 });
      await database.db.transaction().execute((trx) => appendToOutbox(trx, schema, [marker]));

      await waitFor(async () => received.some((e) => e.id === marker.id));
      expect(received.map((e) => e.id)).toEqual([committed.id, marker.id]);
      expect(received[0]).toEqual(committed);
      // The relay commits `published_at` just after the broker's confirm, so possibly after the delivery.
      await waitFor(async () => (await unpublished(schema)) === 0);
    } finally {
      await relay.stop();
    }
  });

  it('with two relays at once, publishes each of 500 events exactly once', { timeout: 45_000 }, async () => {
    const schema = await outboxSchema('relay_pair');
    const received = await collect('pair', 'pair_test.*');
    const events = Array.from({ length: 500 }, (_, i) => makeEvent('pair_test.created', { i }));
    for (let i = 0; i < events.length; i += 50) {
      await database.db.transaction().execute((trx) => appendToOutbox(trx, schema, events.slice(i, i + 50)));
    }
    const perRelay = [0, 0];
    const countingBus = (index: 0 | 1): Pick<MessageBus, 'publish'> => ({
      async publish(batch) {
        await bus.publish(batch);
        perRelay[index] = (perRelay[index] ?? 0) + batch.length;
      },
    });
    const relays = ([0, 1] as const).map((index) =>
      startOutboxRelay({ db: database.db, schema, bus: countingBus(index), logger: testLogger, batchSize: 20, pollIntervalMs: 20 }),
    );
    try {
      await waitFor(async () => new Set(received.map((e) => e.id)).size === 500, 20_000);
      // Anything published twice would be in the queue before this marker, published after both relays are done.
      await Promise.all(relays.map((relay) => relay.stop()));
      const marker = makeEvent('pair_test.marker', {});
      await bus.publish([marker]);
      await waitFor(async () => received.some((e) => e.id === marker.id));

      expect(received.length).toBe(501);
      expect(
        received
          .filter((e) => e.id !== marker.id)
          .map((e) => e.id)
          .sort(),
      ).toEqual(events.map((e) => e.id).sort());
      expect((perRelay[0] ?? 0) + (perRelay[1] ?? 0)).toBe(500);
      // Both took part (SKIP LOCKED let them take different rows at the same time).
      expect(perRelay.every((count) => count > 0)).toBe(true);
      expect(await unpublished(schema)).toBe(0);
    } finally {
      await Promise.all(relays.map((relay) => relay.stop()));
    }
  });

  it('retries with back-off when publishing fails, and ends up publishing everything in order', async () => {
    const schema = await outboxSchema('relay_flaky');
    const received = await collect('flaky', 'flaky_test.*');
    let calls = 0;
    const flakyBus: Pick<MessageBus, 'publish'> = {
      async publish(batch) {
        calls += 1;
        if (calls <= 3) throw new Error(`broker unavailable (call ${calls})`);
        await bus.publish(batch);
      },
    };
    const events = Array.from({ length: 30 }, (_, i) => makeEvent('flaky_test.created', { i }));
    await database.db.transaction().execute((trx) => appendToOutbox(trx, schema, events));
    const relay = startOutboxRelay({ db: database.db, schema, bus: flakyBus, logger: testLogger, pollIntervalMs: 20, maxBackoffMs: 100 });
    try {
      await waitFor(async () => received.length >= 30);
      expect(calls).toBeGreaterThanOrEqual(4);
      expect(received.map((e) => e.id)).toEqual(events.map((e) => e.id));
      await waitFor(async () => (await unpublished(schema)) === 0);
    } finally {
      await relay.stop();
    }
  });

  it('publishes as soon as a transaction commits, woken by its NOTIFY, with the safety poll at 60 s', async () => {
    const schema = await outboxSchema('relay_listen');
    const received = await collect('listen', 'listen_test.*');
    const relay = startOutboxRelay({
      db: database.db,
      schema,
      bus,
      logger: testLogger,
      databaseUrl: testDatabase.url,
      pollIntervalMs: 60_000,
    });
    try {
      await waitFor(async () => (await listeningPids(schema)).length === 1);
      // One wake-up follows the LISTEN itself, so it may account for the first event; each later one, committed after
      // the one before arrived, can only have been published on its own notification (the safety poll is 60 s away).
      for (const i of [1, 2, 3]) await commitAndReceive(schema, received, makeEvent('listen_test.created', { i }));
      // Several events of one transaction: one notification, one batch, in order.
      const together = Array.from({ length: 5 }, (_, i) => makeEvent('listen_test.together', { i }));
      await database.db.transaction().execute((trx) => appendToOutbox(trx, schema, together));
      await waitFor(async () => together.every((event) => received.some((e) => e.id === event.id)));
      expect(received.filter((e) => e.type === 'listen_test.together').map((e) => e.id)).toEqual(together.map((e) => e.id));
      await waitFor(async () => (await unpublished(schema)) === 0);
    } finally {
      await relay.stop();
    }
  });

  it('when its LISTEN connection is killed, reconnects, catches up and is woken again', async () => {
    const schema = await outboxSchema('relay_relisten');
    const received = await collect('relisten', 'relisten_test.*');
    const relay = startOutboxRelay({
      db: database.db,
      schema,
      bus,
      logger: testLogger,
      databaseUrl: testDatabase.url,
      pollIntervalMs: 60_000,
    });
    try {
      const [first] = await waitFor(async () => {
        const pids = await listeningPids(schema);
        return pids.length === 1 && pids;
      });
      await commitAndReceive(schema, received, makeEvent('relisten_test.before', {}));
      await sql`select pg_terminate_backend(${first})`.execute(database.db);
      // Committed while the relay may not listen: published once it listens again (the wake-up after LISTEN).
      await commitAndReceive(schema, received, makeEvent('relisten_test.during', {}));
      const [second] = await waitFor(async () => {
        const pids = await listeningPids(schema);
        return pids.length === 1 && pids[0] !== first && pids;
      });
      expect(second).not.toBe(first);
      for (const i of [1, 2]) await commitAndReceive(schema, received, makeEvent('relisten_test.after', { i }));
      expect(received.map((e) => e.type)).toEqual([
        'relisten_test.before',
        'relisten_test.during',
        'relisten_test.after',
        'relisten_test.after',
      ]);
    } finally {
      await relay.stop();
    }
    expect(await relayConnections(schema)).toBe(0);
  });

  it('stop() closes the LISTEN connection and leaves nothing that keeps the process alive', async () => {
    const schema = 'relay_exit';
    const fixture = fileURLToPath(new URL('./fixtures/relay-exit.ts', import.meta.url));
    // The child ends by itself only when no socket or ref'd timer is left after stop() and closing the database.
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
      execFile(process.execPath, [fixture, testDatabase.url, schema], { timeout: 15_000 }, (error, out, err) => {
        if (error) reject(new Error(`the relay's process did not end by itself: ${error.message}\n${out}\n${err}`));
        else resolve({ stdout: out });
      });
    });
    expect(stdout.split('\n')).toEqual(['published', 'stopped', '']);
    expect(await relayConnections(schema)).toBe(0);
  });

  it('keeps publishing on the safety poll when it cannot LISTEN at all', async () => {
    const schema = await outboxSchema('relay_no_listen');
    const received = await collect('nolisten', 'nolisten_test.*');
    const unreachable = new URL(testDatabase.url);
    unreachable.port = '1';
    const relay = startOutboxRelay({ db: database.db, schema, bus, logger: testLogger, databaseUrl: unreachable.href, pollIntervalMs: 50 });
    try {
      await commitAndReceive(schema, received, makeEvent('nolisten_test.created', {}));
    } finally {
      await relay.stop();
    }
  });

  it('prunes published rows past the retention', async () => {
    const schema = await outboxSchema('relay_prune');
    await collect('prune', 'prune_test.*');
    await database.db.transaction().execute((trx) => appendToOutbox(trx, schema, [makeEvent('prune_test.created', {})]));
    const relay = startOutboxRelay({
      db: database.db,
      schema,
      bus,
      logger: testLogger,
      pollIntervalMs: 20,
      retentionMs: 1,
      pruneIntervalMs: 0,
    });
    try {
      await waitFor(async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from relay_prune.outbox`.execute(database.db);
        return rows[0]?.n === 0;
      });
    } finally {
      await relay.stop();
    }
  });
});
