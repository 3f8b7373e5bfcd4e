import type { Kysely } from 'kysely';
import { createAmqpBus } from './amqp-bus.ts';
import type { MessageBus } from './bus.ts';
import { createInProcessBus } from './in-process-bus.ts';
import { startOutboxRelay } from './outbox-relay.ts';

type Logger = Parameters<typeof createInProcessBus>[0]['logger'];

/** Where a producing service's events go: an injected bus, RabbitMQ, or an in-process bus. */
export interface EventPublishingOptions<DB> {
  /** The service's database, holding `<schema>.outbox` (its own typed handle: no cast needed). */
  db: Kysely<DB>;
  schema: string;
  logger: Logger;
  /** A bus to use as it is (not closed by {@link EventPublishing.close}). */
  bus?: MessageBus | undefined;
  /** RabbitMQ to connect to when no bus is given; without it, an in-process bus. */
  amqpUrl?: string | undefined;
  exchange?: string | undefined;
  /**
   * The PostgreSQL URL `db` runs on (the service's `DATABASE_URL`), for the relay's LISTEN connection: events are
   * published as soon as their transaction commits. Unset on PGlite (in-process wake-ups do it there). See
   * `OutboxRelayOptions.databaseUrl`.
   */
  databaseUrl?: string | undefined;
  /** The relay's safety poll, ms (`OutboxRelayOptions.pollIntervalMs`). Default 5 000. */
  relayPollIntervalMs?: number | undefined;
}

/** A producing service's bus and the outbox relay that feeds it. */
export interface EventPublishing {
  bus: MessageBus;
  /** Stops the relay after its current batch (and its LISTEN connection), then closes the bus if it was made here. */
  close: () => Promise<void>;
}

/**
 * Sets up a producing service's side of the transactional outbox: the bus (the given one, else RabbitMQ at
 * `amqpUrl`, else in-process) and the relay that publishes `<schema>.outbox` to it with publisher confirms, woken by
 * each commit (LISTEN on PostgreSQL when `databaseUrl` is given, in-process on PGlite) and polling every
 * `relayPollIntervalMs` besides.
 * A bus made here waits for the broker (`waitForBroker`): the service starts while RabbitMQ is unreachable, its
 * events stay in the outbox (the relay's publish fails and it backs off), and they are published once it connects.
 */
export async function startEventPublishing<DB>(options: EventPublishingOptions<DB>): Promise<EventPublishing> {
  const { logger } = options;
  const owned = options.bus === undefined;
  const bus =
    options.bus ??
    (options.amqpUrl
      ? await createAmqpBus({
          url: options.amqpUrl,
          ...(options.exchange ? { exchange: options.exchange } : {}),
          logger,
          waitForBroker: true,
        })
      : createInProcessBus({ logger }));
  const relay = startOutboxRelay({
    db: options.db,
    schema: options.schema,
    bus,
    logger,
    databaseUrl: options.databaseUrl,
    ...(options.relayPollIntervalMs === undefined ? {} : { pollIntervalMs: options.relayPollIntervalMs }),
  });
  return {
    bus,
    close: async () => {
      await relay.stop();
      if (owned) await bus.close();
    },
  };
}
