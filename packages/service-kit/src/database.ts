import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, type RawBuilder, sql } from 'kysely';
import pg from 'pg';

/**
 * Where a service's data lives: a PostgreSQL server, embedded PGlite in a folder of its own (or in memory), or an
 * {@link EmbeddedDatabase} it shares with the other services of its process.
 */
export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number; preparedStatements?: boolean }
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite'; embedded: EmbeddedDatabase };

/**
 * One embedded PGlite that several services of one process share, each in its own schema, as they share one
 * PostgreSQL database in a deployment (the one-process launcher's: one PGlite costs about 130 to 180 MiB resident on an
 * existing folder with {@link EMBEDDED_POSTGRES_SETTINGS}, over 500 MiB once it created a fresh one in this process,
 * which {@link initEmbeddedDataDir} avoids, and one per service multiplied that). PGlite has a single connection; Kysely's PGlite driver runs each
 * transaction in PGlite's exclusive transaction mode, so one service's transaction never takes in another's
 * statements. The services' handles never close it: whoever opened it closes it, after them.
 */
export interface EmbeddedDatabase extends AsyncDisposable {
  readonly pglite: PGlite;
  /** Its folder, or `memory://`. */
  readonly dataDir: string;
  /** Closes PGlite (flushing it to its folder); idempotent. */
  close: () => Promise<void>;
}

/** What a launcher running several services in one process may hand each of them instead of a database of its own. */
export interface DatabaseOverrides {
  /** Used when `DATABASE_URL` is unset, instead of a PGlite under `DATA_DIR/<schema>`; not closed by the service. */
  embeddedDatabase?: EmbeddedDatabase;
}

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
 * Chooses the database for a service: PostgreSQL when `url` is set (with {@link PreparingClient}'s named statements
 * unless `preparedStatements` is false), else embedded PGlite persisted under `<dataRoot>/<service>` (`memory://` as
 * `dataRoot` keeps it in memory).
 */
export function databaseTarget(
  url: string | undefined,
  dataRoot: string,
  service: string,
  poolSize?: number,
  preparedStatements?: boolean,
): DatabaseTarget {
  if (url)
    return { kind: 'postgres', url, ...(poolSize ? { poolSize } : {}), ...(preparedStatements === false ? { preparedStatements } : {}) };
  return { kind: 'pglite', dataDir: embeddedDataDir(dataRoot, service) };
}

/** The folder `<dataRoot>/<name>` of an embedded database (`memory://` as `dataRoot` keeps it in memory). */
export function embeddedDataDir(dataRoot: string, name: string): string {
  return dataRoot === 'memory://' ? 'memory://' : `${dataRoot.replace(/\/$/, '')}/${name}`;
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

/** The statements {@link PreparingClient} prepares: those PostgreSQL's PREPARE takes (the DML, and WITH queries). */
const PREPARABLE = /^\s*(select|insert|update|delete|with|values|merge)\b/i;

/** How many statements {@link PreparingClient} keeps prepared per connection; later ones run unnamed. */
export const PREPARED_STATEMENTS_PER_CONNECTION = 256;

/**
 * A node-postgres client that sends each distinct parameterised DML text (as Kysely compiles it) as a named prepared
 * statement, so PostgreSQL parses and plans it once per connection instead of once per query (the extended query
 * protocol's named Parse; node-postgres then sends only Bind/Execute). Names are `sy_` and the text's SHA-1 prefix; at
 * most {@link PREPARED_STATEMENTS_PER_CONNECTION} texts per connection are named, so a query whose text varies
 * (`in ($1, $2, …)` lists) cannot grow the server's memory without bound. Statements without parameters, transaction
 * control and DDL go as before. Not for a transaction-mode connection pooler that forgets prepared statements
 * between transactions (PgBouncer before 1.21): `DB_PREPARED_STATEMENTS=off` turns it off.
 */
export class PreparingClient extends pg.Client {
  readonly #names = new Map<string, string>();

  // biome-ignore lint/suspicious/noExplicitAny: node-postgres's query() has a dozen overloads; this one forwards them all.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined && PREPARABLE.test(config)) {
      let name = this.#names.get(config);
      if (name === undefined && this.#names.size < PREPARED_STATEMENTS_PER_CONNECTION) {
        name = `sy_${createHash('sha1').update(config).digest('hex').slice(0, 24)}`;
        this.#names.set(config, name);
      }
      if (name !== undefined) return super.query({ name, text: config, values });
    }
    return super.query(config, values, callback);
  }
}

/**
 * The PostgreSQL settings every embedded PGlite starts with, beside PGlite's own start parameters (`-c name=value`,
 * `SHOW name` confirms them). PGlite writes over the whole of its shared memory when it starts, so `shared_buffers`
 * (PostgreSQL's default, 128MB, sizes the WAL buffers too) is resident from the first query on: 16MB (2,048 pages of
 * 8 kB) takes about 130 MiB off every PGlite, and the operating system's page cache still holds the files PGlite reads.
 */
export const EMBEDDED_POSTGRES_SETTINGS: Readonly<Record<string, string>> = { shared_buffers: '16MB' };

/**
 * PGlite's options for an embedded database here: `date` read as its text, and {@link EMBEDDED_POSTGRES_SETTINGS}
 * after PGlite's default start parameters.
 */
export function embeddedPGliteOptions(): PGliteOptions {
  return {
    parsers: { [DATE_OID]: (value: string) => value },
    startParams: [
      ...PGlite.defaultStartParams,
      ...Object.entries(EMBEDDED_POSTGRES_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
  };
}

/** A PGlite in `dataDir` (created if missing; `memory://` keeps it in memory) with {@link embeddedPGliteOptions}. */
function newPGlite(dataDir: string): PGlite {
  if (dataDir !== 'memory://') mkdirSync(dataDir, { recursive: true });
  return new PGlite(dataDir, embeddedPGliteOptions());
}

/**
 * Opens the {@link EmbeddedDatabase} in `dataDir` for the services of this process to share (hand it to each as
 * {@link DatabaseOverrides}`.embeddedDatabase`). Nothing is read until first use; a bad folder fails the first query.
 */
export function openEmbeddedDatabase(dataDir: string): EmbeddedDatabase {
  const pglite = newPGlite(dataDir);
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= pglite.closed ? Promise.resolve() : pglite.close();
    return closed;
  };
  return { pglite, dataDir, close, [Symbol.asyncDispose]: close };
}

/**
 * Opens a Kysely instance on PostgreSQL (node-postgres pool, default 10 connections) or on PGlite
 * (Kysely's built-in `PGliteDialect`, one connection), its own or a shared {@link EmbeddedDatabase}. Both read
 * `bigint` and `bigint[]` as numbers and `date` as `YYYY-MM-DD` text, so rows look the same on either. Nothing is
 * queried until first use. Closing a handle on a shared embedded database leaves that database open.
 */
export function openDatabase<DB>(target: DatabaseTarget): Database<DB> {
  let db: Kysely<DB>;
  // Kysely's destroy() closes the PGlite it runs on, so a handle on a shared one is only let go.
  let destroy = () => db.destroy();
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      types: pgTypes,
      ...(target.preparedStatements === false ? {} : { Client: PreparingClient }),
    });
    // A dropped idle connection must not take the process down; the pool replaces it.
    pool.on('error', () => {});
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  } else if ('embedded' in target) {
    db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite: target.embedded.pglite }) });
    destroy = async () => {};
  } else {
    db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite: newPGlite(target.dataDir) }) });
  }
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= destroy();
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
