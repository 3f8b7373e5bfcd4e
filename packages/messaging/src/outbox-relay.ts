import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { backoffDelay, sleep } from './backoff.ts';
import type { MessageBus } from './bus.ts';
import { claimUnpublished, markPublished, prunePublished, rowToEnvelope } from './outbox.ts';

/** Options of {@link startOutboxRelay}. */
export interface OutboxRelayOptions<DB> {
  /** The service's database (PostgreSQL or PGlite); the relay opens its own transactions on it. */
  db: Kysely<DB>;
  /** The schema holding `outbox` (see `outboxMigration`). */
  schema: string;
  /** Where events go; only `publish` is used. */
  bus: Pick<MessageBus, 'publish'>;
  logger: Logger;
  /** Rows per transaction and per `publish` call. Default 100. */
  batchSize?: number;
  /** Pause between polls when the outbox is empty, ms; also the first back-off delay after a failure. Default 200. */
  pollIntervalMs?: number;
  /** Cap of the back-off after failures, ms. Default 10 000. */
  maxBackoffMs?: number;
  /** Published rows older than this are deleted, ms; 0 keeps them forever. Default 86 400 000 (1 day). */
  retentionMs?: number;
  /** How often pruning runs, ms. Default 60 000. */
  pruneIntervalMs?: number;
}

/** A running relay. */
export interface OutboxRelay {
  /** Stops polling after the batch in progress (which commits or rolls back as usual). Idempotent. */
  stop(): Promise<void>;
  /**
   * Publishes everything unpublished now, batch after batch, and returns how many events it published
   * (rows other relays hold are skipped). Works after `stop()` as well (e.g. a final flush).
   * @throws what `bus.publish` or the database threw; the failed batch stays unpublished
   */
  drain(): Promise<number>;
}

/**
 * Starts the polling publisher of the transactional outbox. Each batch is one transaction: claim up to
 * `batchSize` of the oldest unpublished rows with `FOR UPDATE SKIP LOCKED`, `bus.publish` them as one batch
 * (resolves only once the broker confirmed all), mark them published, commit. When publishing or the
 * database fails the transaction rolls back, nothing is lost, and the relay retries with exponential back-off.
 * Several relays (replicas) may run on one outbox: each row is published by one of them, in `seq` order within
 * a batch. A crash between the broker's confirm and the commit publishes that batch again (at-least-once).
 * Runs on PostgreSQL and on PGlite (one connection: batches and the service's queries take turns).
 */
export function startOutboxRelay<DB>(options: OutboxRelayOptions<DB>): OutboxRelay {
  const { db, schema, bus } = options;
  const logger = options.logger.child({ component: 'outbox-relay', schema });
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 200;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const retentionMs = options.retentionMs ?? 86_400_000;
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  const stopSignal = new AbortController();
  // Batches of this relay run one at a time (the loop and drain() share it).
  let turn: Promise<unknown> = Promise.resolve();
  let lastPrune = Date.now();

  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = turn.then(work, work);
    turn = run.catch(() => {});
    return run;
  }

  function publishBatch(): Promise<number> {
    return exclusive(() =>
      db.transaction().execute(async (trx) => {
        const rows = await claimUnpublished(trx, schema, batchSize);
        if (rows.length === 0) return 0;
        await bus.publish(rows.map(rowToEnvelope));
        await markPublished(
          trx,
          schema,
          rows.map((row) => row.id),
        );
        return rows.length;
      }),
    );
  }

  async function pruneIfDue(): Promise<void> {
    if (retentionMs <= 0 || Date.now() - lastPrune < pruneIntervalMs) return;
    lastPrune = Date.now();
    try {
      const deleted = await exclusive(() => prunePublished(db, schema, retentionMs));
      if (deleted > 0) logger.debug({ deleted }, 'pruned published outbox rows');
    } catch (error) {
      logger.warn({ err: error }, 'pruning the outbox failed');
    }
  }

  async function loop(): Promise<void> {
    let failures = 0;
    while (!stopSignal.signal.aborted) {
      let delay = pollIntervalMs;
      try {
        const published = await publishBatch();
        if (failures > 0) logger.info({ failures }, 'outbox relay publishing again');
        failures = 0;
        if (published > 0) logger.debug({ published }, 'published outbox batch');
        if (published >= batchSize) delay = 0;
        await pruneIfDue();
      } catch (error) {
        failures += 1;
        delay = backoffDelay(failures, { initialDelayMs: pollIntervalMs, maxDelayMs: maxBackoffMs, factor: 2, jitter: 0.2 });
        logger.warn({ err: error, failures, retryInMs: delay }, 'outbox relay could not publish; retrying');
      }
      if (delay > 0) await sleep(delay, stopSignal.signal);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  const running = loop();
  logger.info({ batchSize, pollIntervalMs }, 'outbox relay started');

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        stopSignal.abort();
        await running;
        logger.info('outbox relay stopped');
      })();
      return stopping;
    },
    async drain() {
      let total = 0;
      for (;;) {
        const published = await publishBatch();
        total += published;
        if (published < batchSize) return total;
      }
    },
  };
}
