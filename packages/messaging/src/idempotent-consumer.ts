import type { EventEnvelope } from '@switchyard/contracts';
import { ensureSchema, type SqlExecutor } from '@switchyard/service-kit';
import { type Generated, type Kysely, sql, type Transaction } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Default name of the processed-message table. */
export const PROCESSED_MESSAGE_TABLE = 'processed_message';

/** A row of `<schema>.processed_message`: the id of an event whose work has been committed, and when. */
export interface ProcessedMessageTable {
  id: string;
  processed_at: Generated<Date>;
}

/** Options of {@link processedMessageMigration} and {@link handleOnce}. */
export interface ProcessedMessageOptions {
  /**
   * The table's name (default `processed_message`). A service with several consumers that may receive the
   * same event (two queues bound to one event type) gives each consumer a table of its own; otherwise the
   * second consumer would skip the event as already processed.
   */
  table?: string;
}

/** The default processed-message table, inside the service's schema. */
export interface ProcessedMessageDatabase {
  processed_message: ProcessedMessageTable;
}

/**
 * The migration creating `<schema>.processed_message(id uuid primary key, processed_at timestamptz not null default now())`
 * and an index on `processed_at` (for pruning). Creates the schema when missing. `down` drops the table.
 */
export function processedMessageMigration(schema: string, options: ProcessedMessageOptions = {}): Migration {
  const table = options.table ?? PROCESSED_MESSAGE_TABLE;
  return {
    async up(db) {
      await ensureSchema(db, schema);
      const s = db.schema.withSchema(schema);
      await s
        .createTable(table)
        .addColumn('id', 'uuid', (c) => c.primaryKey())
        .addColumn('processed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await s.createIndex(`${table}_processed_at_idx`).on(table).column('processed_at').execute();
    },
    async down(db) {
      await db.schema.withSchema(schema).dropTable(table).ifExists().execute();
    },
  };
}

/**
 * Runs `work` at most once per event id: in one transaction it inserts the id into `<schema>.processed_message`
 * (`on conflict do nothing`); if the id was there already it skips the work, else it runs `work(trx)`; then commits.
 * If `work` throws, the transaction (id included) rolls back and the error propagates, so a redelivery runs it
 * again. Concurrent deliveries of one id serialise on the primary key: one runs the work, the other skips.
 * Ack the message only after this resolves.
 * @param db the service's database, not a transaction (this opens its own)
 * @returns true when the work ran, false when the event had been processed before
 * @throws what `work` or the database threw
 */
export async function handleOnce<DB>(
  db: Kysely<DB>,
  schema: string,
  event: Pick<EventEnvelope, 'id'>,
  work: (trx: Transaction<DB>) => Promise<void>,
  options: ProcessedMessageOptions = {},
): Promise<boolean> {
  const table = options.table ?? PROCESSED_MESSAGE_TABLE;
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string }>`insert into ${sql.table(`${schema}.${table}`)} (id) values (${event.id}::uuid)
      on conflict (id) do nothing returning id`.execute(trx);
    if (rows.length === 0) return false;
    await work(trx);
    return true;
  });
}

/**
 * Deletes processed-message rows older than `retentionMs` (keep it well above the longest redelivery window:
 * retries, parking and replays from parking).
 * @returns how many rows were deleted
 */
export async function pruneProcessedMessages(
  db: SqlExecutor,
  schema: string,
  retentionMs: number,
  options: ProcessedMessageOptions = {},
): Promise<number> {
  const table = options.table ?? PROCESSED_MESSAGE_TABLE;
  const result = await sql`delete from ${sql.table(`${schema}.${table}`)}
    where processed_at < now() - make_interval(secs => ${retentionMs / 1000})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
