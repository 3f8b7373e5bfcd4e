import { createTestDatabase, type TestDatabase } from '@switchyard/service-kit/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase, PREPARED_STATEMENTS_PER_CONNECTION } from '../src/index.ts';

/** The statements this session has prepared (PostgreSQL's `pg_prepared_statements`, which lists only the caller's). */
async function prepared(database: Database<unknown>): Promise<Array<{ name: string; statement: string }>> {
  const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(
    database.db,
  );
  return rows;
}

describe('named prepared statements on PostgreSQL', () => {
  let testDb: TestDatabase;
  const opened: Database<unknown>[] = [];
  const open = (preparedStatements?: boolean) => {
    const database = openDatabase<unknown>({
      kind: 'postgres',
      url: testDb.url,
      poolSize: 1,
      ...(preparedStatements === undefined ? {} : { preparedStatements }),
    });
    opened.push(database);
    return database;
  };

  beforeAll(async () => {
    testDb = await createTestDatabase(inject('databaseUrl'), 'prepared_statements');
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    await testDb?.drop();
  });

  it('prepares a parameterised query once per connection and answers it the same every time', async () => {
    const database = open();
    for (const n of [1, 2, 3]) {
      const { rows } = await sql<{ n: number }>`select ${n}::int + 1 as n`.execute(database.db);
      expect(rows).toEqual([{ n: n + 1 }]);
    }
    const statements = (await prepared(database)).filter((row) => row.statement.includes('::int + 1'));
    expect(statements).toHaveLength(1);
    expect(statements[0]?.name).toMatch(/^sy_[0-9a-f]{24}$/);
  });

  it('leaves statements without parameters and transaction control unnamed', async () => {
    const database = open();
    await database.db.transaction().execute(async (trx) => {
      await sql`select 42 as answer`.execute(trx);
    });
    expect((await prepared(database)).map((row) => row.statement)).not.toContainEqual(expect.stringMatching(/answer|begin|commit/i));
  });

  it(`names at most ${PREPARED_STATEMENTS_PER_CONNECTION} texts per connection, and runs the rest unnamed`, async () => {
    const database = open();
    const texts = PREPARED_STATEMENTS_PER_CONNECTION + 20;
    for (let i = 0; i < texts; i++) {
      const { rows } = await sql<{ n: number }>`select ${i}::int as n, ${sql.lit(i)} as variant`.execute(database.db);
      expect(rows[0]?.n).toBe(i);
    }
    expect((await prepared(database)).filter((row) => row.statement.includes('as variant'))).toHaveLength(
      PREPARED_STATEMENTS_PER_CONNECTION,
    );
  });

  it('prepares nothing when turned off (DB_PREPARED_STATEMENTS=off)', async () => {
    const database = open(false);
    await sql`select ${7}::int as seven`.execute(database.db);
    expect(await prepared(database)).toEqual([]);
  });
});
