import type { EventEnvelope } from '@switchyard/contracts';
import { ensureSchema, type SqlExecutor } from '@switchyard/service-kit';
import { type ColumnType, type Generated, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { assertValidEvents } from './envelope-codec.ts';
import { outboxChannel, wakeOutboxRelays } from './outbox-notifications.ts';

/**
 * A row of `<schema>.outbox`. `seq` orders rows (bigint identity; a string as node-postgres returns int8);
 * `version` is the event's payload version; `data` is the event's payload as JSONB; `published_at` is null
 * until the relay had the event confirmed.
 */
export interface OutboxTable {
  seq: Generated<string>;
  id: string;
  type: string;
  version: Generated<number>;
  source: string;
  time: ColumnType<Date, string, never>;
  data: ColumnType<unknown, unknown, never>;
  created_at: Generated<Date>;
  published_at: ColumnType<Date | null, never, Date | null>;
}

/** The tables this module reads and writes, inside the service's schema. */
export interface OutboxDatabase {
  outbox: OutboxTable;
}

/** An unpublished row as the relay claims it. */
export interface OutboxRow {
  id: string;
  type: string;
  version: number;
  source: string;
  time: Date | string;
  data: unknown;
}

const outboxTable = (schema: string) => sql.table(`${schema}.outbox`);

/**
 * The migration creating `<schema>.outbox`: `seq bigint generated always as identity primary key`,
 * `id uuid unique`, `type text`, `source text`, `time timestamptz`, `data jsonb`, `created_at timestamptz default now()`,
 * `published_at timestamptz null`; a partial index on `seq` of unpublished rows (what the relay scans) and one on
 * `published_at` of published rows (what pruning scans). Creates the schema when missing. `down` drops the table.
 * Add it to the service's migrations under a name of its own, e.g. `'0002_outbox': outboxMigration('config')`.
 */
export function outboxMigration(schema: string): Migration {
  return {
    async up(db) {
      await ensureSchema(db, schema);
      const s = db.schema.withSchema(schema);
      await s
        .createTable('outbox')
        .addColumn('seq', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
        .addColumn('id', 'uuid', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('time', 'timestamptz', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('published_at', 'timestamptz')
        .execute();
      await s.createIndex('outbox_unpublished_idx').on('outbox').column('seq').where(sql.ref('published_at'), 'is', null).execute();
      await s
        .createIndex('outbox_published_at_idx')
        .on('outbox')
        .column('published_at')
        .where(sql.ref('published_at'), 'is not', null)
        .execute();
    },
    async down(db) {
      await db.schema.withSchema(schema).dropTable('outbox').ifExists().execute();
    },
  };
}

/**
 * The migration adding `version integer not null default 1` to `<schema>.outbox` (the payload version of each
 * event; rows written before it are version 1). Add it after {@link outboxMigration}, under a later name.
 */
export function outboxVersionMigration(schema: string): Migration {
  return {
    async up(db) {
      await db.schema
        .withSchema(schema)
        .alterTable('outbox')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
    async down(db) {
      await db.schema.withSchema(schema).alterTable('outbox').dropColumn('version').execute();
    },
  };
}

/**
 * Stores events in `<schema>.outbox` for the relay to publish. Call it with the transaction that makes
 * the change the events describe, so both commit or neither does. Order of `events` is publication order.
 * Producers use an `EventOutbox` (`eventOutbox()`), which builds and checks catalogued events; this is its storage,
 * and the one way rows get into an outbox. The same statement sends `pg_notify(outboxChannel(schema), '')`, which
 * PostgreSQL delivers to the relays' LISTEN connections when the transaction commits (nothing on rollback), and once
 * it returned the relays of this process are woken (`onOutboxAppended`, PGlite's path).
 * @param trx the caller's transaction (a plain `Kysely` works too, then the insert commits on its own)
 * @throws InvalidEventError when an event is not a valid envelope (nothing is inserted; the caller's transaction should roll back)
 * @throws the database error, e.g. a unique violation when an event id is already in the outbox
 */
export async function appendToOutbox(trx: SqlExecutor, schema: string, events: readonly EventEnvelope[]): Promise<void> {
  assertValidEvents(events);
  if (events.length === 0) return;
  const rows = events.map(
    // `data` as text cast to jsonb: the same on node-postgres and PGlite, whatever the shape of `data`.
    (event) =>
      sql`(${event.id}::uuid, ${event.type}, ${event.version ?? 1}::integer, ${event.source}, ${event.time}::timestamptz, cast(${JSON.stringify(event.data ?? null)} as text)::jsonb)`,
  );
  // One round trip: a data-modifying WITH runs whether or not the outer query reads it.
  await sql`with inserted as (insert into ${outboxTable(schema)} (id, type, version, source, time, data) values ${sql.join(rows)})
    select pg_notify(${outboxChannel(schema)}, '')`.execute(trx);
  wakeOutboxRelays(schema);
}

/**
 * Locks and returns up to `limit` of the oldest unpublished rows, skipping rows another transaction holds
 * (`FOR UPDATE SKIP LOCKED`), so relays in several processes never take the same row. Use inside a transaction.
 */
export async function claimUnpublished(trx: SqlExecutor, schema: string, limit: number): Promise<OutboxRow[]> {
  const { rows } = await sql<OutboxRow>`select id, type, version, source, time, data from ${outboxTable(schema)}
    where published_at is null order by seq limit ${limit} for update skip locked`.execute(trx);
  return rows;
}

/** Sets `published_at = now()` on the rows with these ids. */
export async function markPublished(trx: SqlExecutor, schema: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`update ${outboxTable(schema)} set published_at = now() where id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(
    trx,
  );
}

/**
 * Deletes rows published more than `retentionMs` ago (by the database clock).
 * @returns how many rows were deleted
 */
export async function prunePublished(db: SqlExecutor, schema: string, retentionMs: number): Promise<number> {
  const result = await sql`delete from ${outboxTable(schema)}
    where published_at is not null and published_at < now() - make_interval(secs => ${retentionMs / 1000})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Rebuilds the envelope of an outbox row; `time` comes back in UTC with millisecond precision. */
export function rowToEnvelope(row: OutboxRow): EventEnvelope {
  const time = row.time instanceof Date ? row.time : new Date(row.time);
  return { id: row.id, type: row.type, version: row.version, source: row.source, time: time.toISOString(), data: row.data };
}
