import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { backoffDelay } from './backoff.ts';
import type { MessageBus } from './bus.ts';
import { claimUnpublished, markPublished, prunePublished, rowToEnvelope } from './outbox.ts';
import { listenForOutbox, type OutboxListener, onOutboxAppended, outboxChannel } from './outbox-notifications.ts';

/** Options of {@link startOutboxRelay}. */
export interface OutboxRelayOptions<DB> {
  /** The service's database (PostgreSQL or PGlite); the relay opens its own transactions on it. */
  db: Kysely<DB>;
  /** The schema holding `outbox` (see `outboxMigration`). */
  schema: string;
  /** Where events go; only `publish` is used. */
  bus: Pick<MessageBus, 'publish'>;
  logger: Logger;
  /**
   * The PostgreSQL URL of `db`'s database, when `db` runs on PostgreSQL: the relay then LISTENs on
   * `outboxChannel(schema)` on a connection of its own (one more connection per relay, outside `db`'s pool) and
   * publishes as soon as a writer's transaction commits. Leave it unset on PGlite, where the in-process wake-ups of
   * `appendToOutbox` do the same. On PostgreSQL without it, a transaction's events wait for the safety poll.
   */
  databaseUrl?: string | undefined;
  /** Rows per transaction and per `publish` call. Default 100. */
  batchSize?: number;
  /**
   * The safety poll: how long the relay waits for a wake-up before it looks at the outbox anyway, ms. It catches rows
   * whose notification was lost (committed while the LISTEN connection was reconnecting). Default 5 000.
   */
  pollIntervalMs?: number;
  /** First back-off delay after a failed batch, ms; it doubles (±20 % jitter) up to `maxBackoffMs`. Default 200. */
  retryDelayMs?: number;
  /** Cap of the back-off after failures (and of the LISTEN connection's reconnection delay), ms. Default 10 000. */
  maxBackoffMs?: number;
  /** Published rows older than this are deleted, ms; 0 keeps them forever. Default 86 400 000 (1 day). */
  retentionMs?: number;
  /** How often pruning runs, ms. Default 60 000. */
  pruneIntervalMs?: number;
}

/** A running relay. */
export interface OutboxRelay {
  /**
   * Stops the loop after the batch in progress (which commits or rolls back as usual) and closes the LISTEN connection;
   * once it resolved the relay holds no timer, socket or listener. Idempotent.
   */
  stop(): Promise<void>;
  /**
   * Publishes everything unpublished now, batch after batch, and returns how many events it published
   * (rows other relays hold are skipped). Works after `stop()` as well (e.g. a final flush).
   * @throws what `bus.publish` or the database threw; the failed batch stays unpublished
   */
  drain(): Promise<number>;
}

/**
 * Starts the publisher of the transactional outbox. Each batch is one transaction: claim up to `batchSize` of the
 * oldest unpublished rows with `FOR UPDATE SKIP LOCKED`, `bus.publish` them as one batch (resolves only once the broker
 * confirmed all), mark them published, commit. When publishing or the database fails the transaction rolls back,
 * nothing is lost, and the relay retries with exponential back-off (wake-ups do not cut a back-off short).
 *
 * The relay runs a batch at once when woken, and otherwise every `pollIntervalMs` (the safety poll):
 * - on PostgreSQL with `databaseUrl`, by the `pg_notify` that `appendToOutbox` sends in the writer's transaction,
 *   which PostgreSQL delivers at commit to the relay's LISTEN connection (see `listenForOutbox`: it reconnects with
 *   back-off when dropped, and the safety poll covers the gap);
 * - otherwise (PGlite), by `appendToOutbox` in this process (`onOutboxAppended`), which is sure there: PGlite runs
 *   one transaction at a time, so the relay's batch starts after the writer's commit.
 * A batch that came back full is followed by the next at once.
 *
 * Several relays (replicas) may run on one outbox: each row is published by one of them, in `seq` order within
 * a batch. A crash between the broker's confirm and the commit publishes that batch again (at-least-once).
 * Runs on PostgreSQL and on PGlite (one connection: batches and the service's queries take turns).
 */
export function startOutboxRelay<DB>(options: OutboxRelayOptions<DB>): OutboxRelay {
  const { db, schema, bus } = options;
  const logger = options.logger.child({ component: 'outbox-relay', schema });
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 5_000;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const retentionMs = options.retentionMs ?? 86_400_000;
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  const stopSignal = new AbortController();
  // Batches of this relay run one at a time (the loop and drain() share it).
  let turn: Promise<unknown> = Promise.resolve();
  let lastPrune = Date.now();

  // A wake-up that came while no wait was under way is kept for the next one.
  let woken = false;
  let endWait: (() => void) | undefined;
  const wake = () => {
    woken = true;
    endWait?.();
  };

  /** Resolves after `ms`, on stop(), or (when `wakeable`) on a wake-up, whichever comes first. */
  function wait(ms: number, wakeable: boolean): Promise<void> {
    if (stopSignal.signal.aborted || (wakeable && woken)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stopSignal.signal.removeEventListener('abort', done);
        if (endWait === done) endWait = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref?.();
      stopSignal.signal.addEventListener('abort', done, { once: true });
      if (wakeable) endWait = done;
    });
  }

  const listener: OutboxListener | undefined = options.databaseUrl
    ? listenForOutbox({ connectionString: options.databaseUrl, schema, onNotify: wake, logger, maxReconnectDelayMs: maxBackoffMs })
    : undefined;
  // In-process wake-ups (PGlite's path); with a LISTEN connection only while it is down, since on PostgreSQL they
  // may come before the writer's commit and NOTIFY covers every writer anyway.
  const unsubscribe = onOutboxAppended(schema, () => {
    if (!listener?.isListening()) wake();
  });

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
      let wakeable = true;
      // Cleared before the claim: a wake-up from here on may be for a commit this batch does not see.
      woken = false;
      try {
        const published = await publishBatch();
        if (failures > 0) logger.info({ failures }, 'outbox relay publishing again');
        failures = 0;
        if (published > 0) logger.debug({ published }, 'published outbox batch');
        if (published >= batchSize) delay = 0;
        await pruneIfDue();
      } catch (error) {
        failures += 1;
        wakeable = false;
        delay = backoffDelay(failures, { initialDelayMs: retryDelayMs, maxDelayMs: maxBackoffMs, factor: 2, jitter: 0.2 });
        logger.warn({ err: error, failures, retryInMs: delay }, 'outbox relay could not publish; retrying');
      }
      if (delay > 0) await wait(delay, wakeable);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  const running = loop();
  logger.info({ batchSize, pollIntervalMs, wakeUps: listener ? `LISTEN ${outboxChannel(schema)}` : 'in-process' }, 'outbox relay started');

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        stopSignal.abort();
        unsubscribe();
        await running;
        await listener?.close();
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
