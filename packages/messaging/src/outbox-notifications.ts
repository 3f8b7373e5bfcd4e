import type { Logger } from '@switchyard/service-kit';
import pg from 'pg';
import { backoffDelay, sleep, withTimeout } from './backoff.ts';

/**
 * The PostgreSQL notification channel of `<schema>.outbox`: `outbox.<schema>`. `appendToOutbox` sends
 * `pg_notify(channel, '')` in the writer's transaction (PostgreSQL delivers it at commit, and not at all on rollback;
 * one per transaction, however many rows), and a relay given `databaseUrl` LISTENs on it. Channels are per database,
 * so relays of the same schema in other databases never hear each other. A channel name is at most 63 bytes, so the
 * schema's name at most 56.
 */
export function outboxChannel(schema: string): string {
  return `outbox.${schema}`;
}

// In-process wake-ups: schema → the relays of this process that take them.
const inProcessWakers = new Map<string, Set<() => void>>();

/**
 * Calls `wake` whenever `appendToOutbox` wrote to `<schema>.outbox` in this process (synchronously, just after its
 * insert, so possibly before the writer's transaction commits). Sure on PGlite only, where every writer is in this process
 * and PGlite runs one transaction at a time: whatever the woken relay runs next starts after the writer's transaction
 * ended. On PostgreSQL a wake-up may come before the commit, and the relay finds nothing yet.
 * @returns the unsubscribe function (idempotent)
 */
export function onOutboxAppended(schema: string, wake: () => void): () => void {
  let wakers = inProcessWakers.get(schema);
  if (!wakers) {
    wakers = new Set();
    inProcessWakers.set(schema, wakers);
  }
  // A function of its own per subscription, so the same `wake` subscribed twice is two subscriptions.
  const entry = () => wake();
  wakers.add(entry);
  return () => {
    const current = inProcessWakers.get(schema);
    current?.delete(entry);
    if (current?.size === 0) inProcessWakers.delete(schema);
  };
}

/** Wakes the in-process subscribers of `schema` (see {@link onOutboxAppended}); a throwing subscriber is ignored. */
export function wakeOutboxRelays(schema: string): void {
  for (const wake of inProcessWakers.get(schema) ?? []) {
    try {
      wake();
    } catch {
      // A relay's wake-up only sets a flag; nothing a writer could act on.
    }
  }
}

/** Options of {@link listenForOutbox}. */
export interface OutboxListenerOptions {
  /** PostgreSQL URL of the outbox's database (as node-postgres reads it: `postgres://user:pass@host:port/db?sslmode=…`). */
  connectionString: string;
  schema: string;
  /** Called on every notification of the channel, and once each time LISTEN is (re-)established. */
  onNotify: () => void;
  logger: Logger;
  /** First delay before reconnecting, ms; doubles (±20 % jitter) up to `maxReconnectDelayMs`. Default 200. */
  reconnectDelayMs?: number;
  /** Cap of the reconnection delay, ms. Default 10 000. */
  maxReconnectDelayMs?: number;
  /** Time a connection attempt may take, and a heartbeat's answer, ms. Default 5 000. */
  connectTimeoutMs?: number;
  /**
   * How often the connection is checked with `select 1`, ms: a connection that does not answer within
   * `connectTimeoutMs` (a half-open socket after a network failure, which TCP keep-alive takes minutes to see) is
   * dropped and replaced. Default 30 000.
   */
  heartbeatMs?: number;
}

/** A running LISTEN connection (see {@link listenForOutbox}). */
export interface OutboxListener {
  /** Whether LISTEN is in force now (false while connecting or reconnecting). */
  isListening(): boolean;
  /** Ends the connection and stops reconnecting; resolves once its socket is closed. Idempotent; never rejects. */
  close(): Promise<void>;
}

/**
 * Opens a dedicated node-postgres client (`application_name` `outbox-relay:<schema>`, TCP keep-alive after 10 s idle)
 * that LISTENs on {@link outboxChannel}`(schema)` and calls `onNotify` for each notification. After LISTEN succeeds it
 * calls `onNotify` once too, since rows committed while it was not listening were heard by nobody. When the connection
 * fails or drops (a server restart, `pg_terminate_backend`, a network error) it reconnects with exponential back-off
 * until {@link OutboxListener.close}; a heartbeat (`select 1` every `heartbeatMs`) finds a connection that died
 * without a word. Meanwhile the caller relies on polling. Never throws: failures are logged at warn.
 */
export function listenForOutbox(options: OutboxListenerOptions): OutboxListener {
  const { connectionString, schema, onNotify } = options;
  const channel = outboxChannel(schema);
  const logger = options.logger;
  const reconnectDelayMs = options.reconnectDelayMs ?? 200;
  const maxReconnectDelayMs = options.maxReconnectDelayMs ?? 10_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const stopSignal = new AbortController();
  let current: pg.Client | undefined;
  let listening = false;

  /** One connection's life: resolves when it is over (failed to set up, dropped, or ended by close()). */
  async function listenOnce(): Promise<boolean> {
    const client = new pg.Client({
      connectionString,
      application_name: `outbox-relay:${schema}`,
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    current = client;
    let lostReason: unknown;
    let markLost = () => {};
    const lost = new Promise<void>((resolve) => {
      markLost = resolve;
      // Both stay attached for the client's life: an 'error' without a listener would throw.
      client.on('error', (error) => {
        lostReason ??= error;
        resolve();
      });
      client.on('end', () => resolve());
    });
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      if (!stopSignal.signal.aborted) logger.warn({ err: error, channel }, 'outbox relay could not LISTEN; the safety poll goes on');
      await endClient(client);
      return false;
    }
    if (stopSignal.signal.aborted) {
      await endClient(client);
      return true;
    }
    listening = true;
    logger.debug({ channel }, 'outbox relay listening');
    onNotify();
    let checking = false;
    const heartbeat = setInterval(() => {
      if (checking) return;
      checking = true;
      withTimeout(
        client.query('select 1'),
        connectTimeoutMs,
        () => new Error(`the LISTEN connection did not answer within ${connectTimeoutMs} ms`),
      )
        .catch((error) => {
          lostReason ??= error;
          markLost();
        })
        .finally(() => {
          checking = false;
        });
    }, heartbeatMs);
    heartbeat.unref();
    await lost;
    clearInterval(heartbeat);
    listening = false;
    await endClient(client);
    if (!stopSignal.signal.aborted) {
      logger.warn({ err: lostReason, channel }, 'outbox relay lost its LISTEN connection; reconnecting, the safety poll goes on');
    }
    return true;
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopSignal.signal.aborted) {
      const listened = await listenOnce();
      if (stopSignal.signal.aborted) break;
      // A connection that listened and dropped is retried at the first delay; failed attempts back off.
      failures = listened ? 1 : failures + 1;
      await sleep(
        backoffDelay(failures, { initialDelayMs: reconnectDelayMs, maxDelayMs: maxReconnectDelayMs, factor: 2, jitter: 0.2 }),
        stopSignal.signal,
      );
    }
    current = undefined;
  }

  /** Ends `client` (a no-op when it already ended); after `connectTimeoutMs` without an answer, destroys its socket. */
  async function endClient(client: pg.Client): Promise<void> {
    const ended = client.end().catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      ended.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), connectTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      // node-postgres keeps the socket as `connection.stream`; end() waits for its close, which a dead peer never sends.
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      await ended;
    }
  }

  const running = run();
  let closing: Promise<void> | undefined;
  return {
    isListening: () => listening,
    close() {
      closing ??= (async () => {
        stopSignal.abort();
        if (current) await endClient(current);
        await running;
      })();
      return closing;
    },
  };
}
