import { type Database, migrateToLatest, openDatabase } from '@switchyard/service-kit';
import { createTestDatabase, type TestDatabase } from '@switchyard/service-kit/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handleOnce, processedMessageMigration, pruneProcessedMessages } from '../src/idempotent-consumer.ts';
import { makeEvent } from './support.ts';

const schema = 'consumer';
let testDatabase: TestDatabase;
let database: Database<unknown>;

async function workRows(eventId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from consumer.work where event_id = ${eventId}`.execute(database.db);
  return rows[0]?.n ?? -1;
}

beforeAll(async () => {
  testDatabase = await createTestDatabase(inject('databaseUrl'), 'messaging_idem');
  database = openDatabase({ kind: 'postgres', url: testDatabase.url, poolSize: 10 });
  await migrateToLatest(database.db, schema, {
    '0001_processed_message': processedMessageMigration(schema),
    '0002_work': {
      up: async (db) => {
        await sql`create table consumer.work (event_id uuid not null)`.execute(db);
      },
    },
  });
});

afterAll(async () => {
  await database?.close();
  await testDatabase?.drop();
});

describe('handleOnce on PostgreSQL', () => {
  it('runs the work once for a repeated event id', async () => {
    const event = makeEvent('repo.created', {});
    const work = async (trx: Parameters<Parameters<typeof handleOnce>[3]>[0]) => {
      await sql`insert into consumer.work (event_id) values (${event.id})`.execute(trx);
    };
    expect(await handleOnce(database.db, schema, event, work)).toBe(true);
    expect(await handleOnce(database.db, schema, event, work)).toBe(false);
    expect(await workRows(event.id)).toBe(1);
  });

  it('runs the work once when the same event arrives on several deliveries at the same time', async () => {
    const event = makeEvent('repo.created', {});
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        handleOnce(database.db, schema, event, async (trx) => {
          await sql`insert into consumer.work (event_id) values (${event.id})`.execute(trx);
          await sql`select pg_sleep(0.05)`.execute(trx);
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await workRows(event.id)).toBe(1);
  });

  it('forgets the id when the work fails, so a redelivery runs it again', async () => {
    const event = makeEvent('repo.created', {});
    await expect(
      handleOnce(database.db, schema, event, async (trx) => {
        await sql`insert into consumer.work (event_id) values (${event.id})`.execute(trx);
        throw new Error('downstream failed');
      }),
    ).rejects.toThrow('downstream failed');
    expect(await workRows(event.id)).toBe(0);
    expect(
      await handleOnce(database.db, schema, event, async (trx) => {
        await sql`insert into consumer.work (event_id) values (${event.id})`.execute(trx);
      }),
    ).toBe(true);
    expect(await workRows(event.id)).toBe(1);
  });

  it('keeps separate tables apart and prunes old ids', async () => {
    await migrateToLatest(database.db, 'consumer2', {
      '0001_processed_message': processedMessageMigration('consumer2', { table: 'seen_by_indexer' }),
    });
    const event = makeEvent('repo.created', {});
    expect(await handleOnce(database.db, 'consumer2', event, async () => {}, { table: 'seen_by_indexer' })).toBe(true);
    expect(await handleOnce(database.db, 'consumer2', event, async () => {}, { table: 'seen_by_indexer' })).toBe(false);
    expect(await pruneProcessedMessages(database.db, 'consumer2', 0, { table: 'seen_by_indexer' })).toBe(1);
    expect(await handleOnce(database.db, 'consumer2', event, async () => {}, { table: 'seen_by_indexer' })).toBe(true);
  });
});
