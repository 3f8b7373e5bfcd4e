import type { Logger } from '@switchyard/service-kit';
import type { ChannelModel, Options } from 'amqplib';
import { type BackoffOptions, backoffDelay } from './backoff.ts';
import { BrokerUnavailableError, BusClosedError } from './errors.ts';

/** Opens one AMQP connection (amqplib's `connect` by default; tests pass a wrapper to reach the socket). */
export type AmqpConnect = (url: string, socketOptions: Options.Connect & Record<string, unknown>) => Promise<ChannelModel>;

/** How {@link openAmqpConnection} connects and reconnects. */
export interface AmqpConnectionOptions {
  url: string;
  logger: Logger;
  connect: AmqpConnect;
  /** Shown in the broker's connection list. */
  connectionName: string;
  backoff: BackoffOptions;
  /**
   * Runs after every successful (re)connection, before publishers waiting for the connection are let through:
   * declare topology, open channels, restore consumers. Throwing closes that connection and schedules a new try.
   */
  onConnect: (model: ChannelModel) => Promise<void>;
}

/** One AMQP connection that heals itself: after an unexpected close it reconnects with capped exponential back-off. */
export interface AmqpConnection {
  /** The open connection, or undefined during an outage (or before `onConnect` finished). */
  current(): ChannelModel | undefined;
  /**
   * The open connection, waiting up to `timeoutMs` for a reconnection during an outage.
   * @throws BrokerUnavailableError when none comes in time
   * @throws BusClosedError once `close()` was called
   */
  waitForConnection(timeoutMs: number): Promise<ChannelModel>;
  /** Stops reconnecting and closes the connection (its channels with it). Idempotent. */
  close(): Promise<void>;
}

interface Waiter {
  resolve: (model: ChannelModel) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Connects to the broker and keeps the connection up. The first attempt is not retried: a wrong URL or
 * an unreachable broker at start-up fails fast, and the caller (or its orchestrator) decides.
 * @throws the connection error of the first attempt, or what `onConnect` threw on it
 */
export async function openAmqpConnection(options: AmqpConnectionOptions): Promise<AmqpConnection> {
  const { logger } = options;
  let current: ChannelModel | undefined;
  let closed = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let establishing: Promise<unknown> | undefined;
  const waiters = new Set<Waiter>();

  async function establish(): Promise<ChannelModel> {
    const model = await options.connect(options.url, { clientProperties: { connection_name: options.connectionName } });
    let dropped = false;
    model.on('error', (error: Error) => logger.warn({ err: error }, 'amqp connection error'));
    model.on('blocked', (reason: string) => logger.warn({ reason }, 'amqp connection blocked by the broker; publishes wait'));
    model.on('unblocked', () => logger.info('amqp connection unblocked'));
    model.on('close', (error?: Error) => {
      dropped = true;
      if (model !== current) return;
      current = undefined;
      if (closed) return;
      logger.warn({ err: error }, 'amqp connection lost; reconnecting');
      scheduleReconnect();
    });
    try {
      await options.onConnect(model);
      if (dropped) throw new Error('connection closed while setting it up');
      if (closed) throw new BusClosedError();
    } catch (error) {
      await model.close().catch(() => {});
      throw error;
    }
    current = model;
    for (const waiter of waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(model);
    }
    waiters.clear();
    return model;
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer) return;
    failures += 1;
    const delay = backoffDelay(failures, options.backoff);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      if (closed) return;
      const attempt = establish().then(
        () => {
          logger.info({ attempts: failures }, 'amqp connection re-established');
          failures = 0;
        },
        (error: unknown) => {
          if (closed) return;
          logger.warn({ err: error, attempt: failures }, 'amqp reconnect failed; trying again');
          scheduleReconnect();
        },
      );
      establishing = attempt.finally(() => {
        if (establishing === attempt) establishing = undefined;
      });
    }, delay);
  }

  await establish();

  return {
    current: () => current,
    waitForConnection(timeoutMs) {
      if (closed) return Promise.reject(new BusClosedError());
      if (current) return Promise.resolve(current);
      return new Promise<ChannelModel>((resolve, reject) => {
        const waiter: Waiter = {
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            reject(new BrokerUnavailableError(timeoutMs));
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(reconnectTimer);
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new BusClosedError());
      }
      waiters.clear();
      await establishing?.catch(() => {});
      const model = current;
      current = undefined;
      await model?.close().catch(() => {});
    },
  };
}
