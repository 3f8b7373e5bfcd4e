export * from './amqp-bus.ts';
export { ATTEMPTS_HEADER, LAST_ERROR_HEADER, ORIGINAL_ROUTING_KEY_HEADER, PARKED_REASON_HEADER } from './amqp-consumer.ts';
export * from './amqp-queue-reader.ts';
export * from './amqp-queue-sender.ts';
export { type ConsumerTopology, consumerTopology, deadLetterExchangeOf, PARKING_DELIVERY_LIMIT } from './amqp-topology.ts';
export * from './bus.ts';
export * from './consume-events.ts';
export { CONSUMER_DEFAULTS, type ResolvedConsumerSpec, resolveConsumerSpec } from './consumer-spec.ts';
export { type DecodeResult, decodeEvent } from './envelope-codec.ts';
export * from './errors.ts';
export * from './event-outbox.ts';
export * from './event-publishing.ts';
export * from './idempotent-consumer.ts';
export * from './in-process-bus.ts';
export * from './messaging-tables.ts';
export {
  appendToOutbox,
  type OutboxDatabase,
  type OutboxTable,
  outboxMigration,
  outboxVersionMigration,
  prunePublished,
} from './outbox.ts';
export { outboxChannel } from './outbox-notifications.ts';
export * from './outbox-relay.ts';
export * from './topic.ts';
