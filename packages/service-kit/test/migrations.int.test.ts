import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@switchyard/service-kit/testing';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, ensureSchema, migrateToLatest, openDatabase } from '../src/index.ts';

/**
 * A service whose role owns its schema but may not create schemas (as in the compose stack and the Kubernetes
 * README): migrating must work without asking for `CREATE` on the database.
 */
describe('migrateToLatest with a role that owns its schema and nothing else', () => {
  let testDb: TestDatabase;
  let admin: pg.Client;
  let asService: Database<unknown>;
  const role = `t_role_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');

  beforeAll(async () => {
    testDb = await createTestDatabase(inject('databaseUrl'), 'migrations_role');
    admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
    await admin.query(`create role ${role} login password '${password}'`);
    await admin.query(`revoke all on database "${testDb.name}" from public`);
    await admin.query(`grant connect on database "${testDb.name}" to ${role}`);
    await admin.query(`create schema owned authorization ${role}`);
    await admin.query('create schema foreign_one');
    const url = new URL(testDb.url);
    url.username = role;
    url.password = password;
    asService = openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
  });

  afterAll(async () => {
    await asService?.close();
    await admin?.end();
    await testDb?.drop();
    const cleanup = new pg.Client({ connectionString: inject('databaseUrl') });
    await cleanup.connect();
    await cleanup.query(`drop role if exists ${role}`).finally(() => cleanup.end());
  });

  const migrations = {
    '0001_items': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .withSchema('owned')
          .createTable('item')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .execute();
      },
    },
  };

  it('migrates its own existing schema, twice', async () => {
    expect(await migrateToLatest(asService.db, 'owned', migrations)).toEqual(['0001_items']);
    expect(await migrateToLatest(asService.db, 'owned', migrations)).toEqual([]);
    const { rows } = await admin.query("select tableowner from pg_tables where schemaname = 'owned' and tablename = 'item'");
    expect(rows).toEqual([{ tableowner: role }]);
  });

  it('cannot create another schema, nor read one it does not own', async () => {
    await expect(migrateToLatest(asService.db, 'elsewhere', {})).rejects.toThrow(/permission denied for database/);
    await expect(migrateToLatest(asService.db, 'foreign_one', {})).rejects.toThrow(/permission denied for schema foreign_one/);
  });
});

/** An API and its worker start together and migrate the same schema at once (release-svc does): neither fails. */
describe('migrateToLatest from several processes at once', () => {
  let testDb: TestDatabase;
  const databases: Database<unknown>[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase(inject('databaseUrl'), 'migrations_race');
  });
  afterAll(async () => {
    for (const database of databases) await database.close();
    await testDb?.drop();
  });

  it('ensureSchema: sessions creating one schema at the same moment all succeed (16 sessions, 20 schemas)', async () => {
    const sessions = Array.from({ length: 16 }, () => openDatabase({ kind: 'postgres', url: testDb.url, poolSize: 1 }));
    databases.push(...sessions);
    const failures: unknown[] = [];
    for (let round = 0; round < 20; round++) {
      const results = await Promise.allSettled(sessions.map((session) => ensureSchema(session.db, `raced_${round}`)));
      failures.push(...results.filter((r) => r.status === 'rejected'));
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('creates the schema and applies each migration once, whoever gets there first', async () => {
    const applied: string[] = [];
    const migrations = {
      '0001_table': {
        up: async (db: Kysely<unknown>) => {
          applied.push('0001_table');
          await db.schema.withSchema('raced').createTable('thing').addColumn('id', 'integer').execute();
        },
      },
    };
    // One pool (one session) per starter, as separate processes have.
    for (let i = 0; i < 6; i++) databases.push(openDatabase({ kind: 'postgres', url: testDb.url, poolSize: 1 }));
    const results = await Promise.allSettled(databases.map((database) => migrateToLatest(database.db, 'raced', migrations)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(applied).toEqual(['0001_table']);
  });
});
