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
  /**
   * Keep trying when the first attempt fails (with the same back-off as reconnections) instead of throwing: the
   * connection starts in an outage. Default false (fail fast).
   */
  retryFirstConnection?: boolean;
}

/** One AMQP connection that heals itself: after an unexpected close it reconnects with capped exponential back-off. */
export interface AmqpConnection {
  /** The open connection, or undefined during an outage (or before `onConnect` finished). */
  current(): ChannelModel | undefined;
  /**
   * The open connection, waiting up to `timeoutMs` (without a limit when it is undefined) for a (re)connection during
   * an outage.
   * @throws BrokerUnavailableError when none comes in time
   * @throws BusClosedError once `close()` was called
   */
  waitForConnection(timeoutMs?: number): Promise<ChannelModel>;
  /** Stops reconnecting and closes the connection (its channels with it). Idempotent. */
  close(): Promise<void>;
}

interface Waiter {
  resolve: (model: ChannelModel) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Connects to the broker and keeps the connection up. By default the first attempt is not retried: a wrong URL or
 * an unreachable broker at start-up fails fast, and the caller (or its orchestrator) decides. With
 * `retryFirstConnection` it resolves at once when the first attempt fails and keeps trying in the background with the
 * back-off, as after a lost connection (`current()` is undefined until then).
 * @throws the connection error of the first attempt, or what `onConnect` threw on it (fail-fast only)
 */
export async function openAmqpConnection(options: AmqpConnectionOptions): Promise<AmqpConnection> {
  const { logger } = options;
  let current: ChannelModel | undefined;
  let closed = false;
  let failures = 0;
  let everConnected = false;
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
    everConnected = true;
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
      const everConnectedBefore = everConnected;
      const attempt = establish().then(
        () => {
          logger.info({ attempts: failures }, everConnectedBefore ? 'amqp connection re-established' : 'amqp connection established');
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

  if (options.retryFirstConnection) {
    try {
      await establish();
    } catch (error) {
      logger.warn({ err: error }, 'no connection to the broker at start; retrying in the background');
      scheduleReconnect();
    }
  } else {
    await establish();
  }

  return {
    current: () => current,
    waitForConnection(timeoutMs) {
      if (closed) return Promise.reject(new BusClosedError());
      if (current) return Promise.resolve(current);
      return new Promise<ChannelModel>((resolve, reject) => {
        const waiter: Waiter = {
          resolve,
          reject,
          timer:
            timeoutMs === undefined
              ? undefined
              : setTimeout(() => {
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
