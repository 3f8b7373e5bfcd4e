import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  createLogger,
  databaseTarget,
  MigrationFailedError,
  migrateToLatest,
  openDatabase,
  openEmbeddedDatabase,
  openServiceDatabase,
} from '../src/index.ts';

/** One migration creating `<schema>.thing (id integer primary key)`. */
const thingMigrations = (schema: string) => ({
  '0001_create_thing': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .withSchema(schema)
        .createTable('thing')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .execute();
    },
  },
});
const migrations = thingMigrations('kit');

describe('databaseTarget', () => {
  it('uses PostgreSQL when a URL is given, else PGlite in a per-service folder', () => {
    expect(databaseTarget('postgres://h/db', '.data', 'catalog', 5)).toEqual({ kind: 'postgres', url: 'postgres://h/db', poolSize: 5 });
    expect(databaseTarget(undefined, '.data/', 'catalog')).toEqual({ kind: 'pglite', dataDir: '.data/catalog' });
    expect(databaseTarget(undefined, 'memory://', 'catalog')).toEqual({ kind: 'pglite', dataDir: 'memory://' });
  });
});

/** Starting PGlite (compiling its WebAssembly) takes seconds of CPU, many of them beside the rest of the suite. */
const PGLITE_TEST_TIMEOUT_MS = 60_000;

describe('openDatabase on embedded PGlite, migrateToLatest', { timeout: PGLITE_TEST_TIMEOUT_MS }, () => {
  it('migrates a schema once, then reports nothing to do', async () => {
    const database = openDatabase(databaseTarget(undefined, 'memory://', 'kit'));
    try {
      await database.ping();
      expect(await migrateToLatest(database.db, 'kit', migrations)).toEqual(['0001_create_thing']);
      expect(await migrateToLatest(database.db, 'kit', migrations)).toEqual([]);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from kit.thing`.execute(database.db);
      expect(rows[0]?.n).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('names the migration that failed', async () => {
    const database = openDatabase(databaseTarget(undefined, 'memory://', 'kit'));
    try {
      const broken = { '0001_broken': { up: async (db: Kysely<unknown>) => void (await sql`select * from nowhere`.execute(db)) } };
      await expect(migrateToLatest(database.db, 'kit', broken)).rejects.toThrowError(MigrationFailedError);
      await expect(migrateToLatest(database.db, 'kit', broken)).rejects.toMatchObject({ migration: '0001_broken' });
    } finally {
      await database.close();
    }
  });
});

describe('one embedded database shared by several services', { timeout: PGLITE_TEST_TIMEOUT_MS }, () => {
  const config = { DATA_DIR: 'unused', DB_POOL_SIZE: 1 };
  const logger = createLogger('test', 'silent');
  const ids = async (db: Kysely<unknown>, schema: string) =>
    (await sql<{ id: number }>`select id from ${sql.table(`${schema}.thing`)} order by id`.execute(db)).rows.map((row) => row.id);

  it('keeps each service in its own schema, and stays open until its opener closes it', async () => {
    await using embedded = openEmbeddedDatabase('memory://');
    const a = await openServiceDatabase('alpha', config, thingMigrations('alpha'), logger, { embeddedDatabase: embedded });
    const b = await openServiceDatabase('beta', config, thingMigrations('beta'), logger, { embeddedDatabase: embedded });
    await sql`insert into alpha.thing (id) values (1)`.execute(a.db);
    await sql`insert into beta.thing (id) values (2)`.execute(b.db);
    expect(await ids(a.db, 'alpha')).toEqual([1]);
    await a.close();
    expect(embedded.pglite.closed).toBe(false);
    expect(await ids(b.db, 'beta')).toEqual([2]);
    await b.close();
    expect(embedded.pglite.closed).toBe(false);
    await embedded.close();
    expect(embedded.pglite.closed).toBe(true);
  });

  it("never runs one service's statement inside another service's open transaction", async () => {
    await using embedded = openEmbeddedDatabase('memory://');
    const a = await openServiceDatabase('alpha', config, thingMigrations('alpha'), logger, { embeddedDatabase: embedded });
    const b = await openServiceDatabase('beta', config, thingMigrations('beta'), logger, { embeddedDatabase: embedded });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside: () => void = () => {};
    const began = new Promise<void>((resolve) => (inside = resolve));
    const rolledBack = a.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into alpha.thing (id) values (1)`.execute(trx);
        inside();
        await held;
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    await began;
    // beta's insert waits for alpha's transaction to end, then commits on its own: the rollback does not take it along.
    const inserted = sql`insert into beta.thing (id) values (2)`.execute(b.db);
    release();
    expect(await rolledBack).toBe('roll back');
    await inserted;
    expect(await ids(a.db, 'alpha')).toEqual([]);
    expect(await ids(b.db, 'beta')).toEqual([2]);
  });
});
