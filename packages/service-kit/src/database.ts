import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, type RawBuilder, sql } from 'kysely';
import pg from 'pg';

/** Where a service's data lives: a PostgreSQL server, or embedded PGlite in a folder (or in memory). */
export type DatabaseTarget = { kind: 'postgres'; url: string; poolSize?: number } | { kind: 'pglite'; dataDir: string };

/**
 * What raw SQL (Kysely's `sql` template) runs on: a `Kysely` instance or a `Transaction` of any database type.
 * Shared modules that own their own tables (the outbox, processed messages, migrations bookkeeping) take this,
 * so a service passes its own typed handle without a cast.
 */
export type SqlExecutor = Parameters<RawBuilder<unknown>['execute']>[0];

/** A service's database handle: the Kysely instance, what it runs on, and how to close it (`[Symbol.asyncDispose]` is `close()`). */
export interface Database<DB> extends AsyncDisposable {
  db: Kysely<DB>;
  kind: DatabaseTarget['kind'];
  /** Resolves when the database answers a trivial query; throws otherwise (used by `/readyz`). */
  ping: () => Promise<void>;
  /** Ends the pool or closes PGlite; idempotent. */
  close: () => Promise<void>;
}

/**
 * Chooses the database for a service: PostgreSQL when `url` is set, else embedded PGlite persisted
 * under `<dataRoot>/<service>` (`memory://` as `dataRoot` keeps it in memory).
 */
export function databaseTarget(url: string | undefined, dataRoot: string, service: string, poolSize?: number): DatabaseTarget {
  if (url) return { kind: 'postgres', url, ...(poolSize ? { poolSize } : {}) };
  return { kind: 'pglite', dataDir: dataRoot === 'memory://' ? 'memory://' : `${dataRoot.replace(/\/$/, '')}/${service}` };
}

const INT8_OID = 20;
const INT8_ARRAY_OID = 1016;
const DATE_OID = 1082;
const int8Array = pg.types.getTypeParser(INT8_ARRAY_OID as Parameters<typeof pg.types.getTypeParser>[0], 'text') as (
  value: string,
) => Array<string | null>;

/** `bigint` (and `bigint[]`) as JS numbers (ids fit: code-host ids are below 2^53), `date` as its `YYYY-MM-DD` text. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID) return (value: string) => Number(value);
    if (oid === INT8_ARRAY_OID) return (value: string) => int8Array(value).map((item) => (item === null ? null : Number(item)));
    if (oid === DATE_OID) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

/**
 * Opens a Kysely instance on PostgreSQL (node-postgres pool, default 10 connections) or on PGlite
 * (Kysely's built-in `PGliteDialect`, one connection). Both read `bigint` and `bigint[]` as numbers and `date` as
 * `YYYY-MM-DD` text, so rows look the same on either. Nothing is queried until first use.
 */
export function openDatabase<DB>(target: DatabaseTarget): Database<DB> {
  let db: Kysely<DB>;
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10, connectionTimeoutMillis: 5_000, types: pgTypes });
    // A dropped idle connection must not take the process down; the pool replaces it.
    pool.on('error', () => {});
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  } else {
    if (target.dataDir !== 'memory://') mkdirSync(target.dataDir, { recursive: true });
    const pglite = new PGlite(target.dataDir, { parsers: { [DATE_OID]: (value: string) => value } });
    db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  }
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= db.destroy();
    return closed;
  };
  return {
    db,
    kind: target.kind,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
