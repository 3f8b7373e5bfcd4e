import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { databaseTarget, MigrationFailedError, migrateToLatest, openDatabase } from '../src/index.ts';

const migrations = {
  '0001_create_thing': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .withSchema('kit')
        .createTable('thing')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .execute();
    },
  },
};

describe('databaseTarget', () => {
  it('uses PostgreSQL when a URL is given, else PGlite in a per-service folder', () => {
    expect(databaseTarget('postgres://h/db', '.data', 'catalog', 5)).toEqual({ kind: 'postgres', url: 'postgres://h/db', poolSize: 5 });
    expect(databaseTarget(undefined, '.data/', 'catalog')).toEqual({ kind: 'pglite', dataDir: '.data/catalog' });
    expect(databaseTarget(undefined, 'memory://', 'catalog')).toEqual({ kind: 'pglite', dataDir: 'memory://' });
  });
});

describe('openDatabase on embedded PGlite, migrateToLatest', () => {
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
