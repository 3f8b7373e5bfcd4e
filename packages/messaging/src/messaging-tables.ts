import type { ProcessedMessageDatabase } from './idempotent-consumer.ts';
import type { OutboxDatabase } from './outbox.ts';

/**
 * The tables this package keeps in a service's schema: the transactional outbox and the processed-message table
 * of idempotent consumers. A service's database type extends it (or {@link OutboxDatabase} alone, for a producer
 * that consumes nothing), so its own Kysely handle can read them typed and be handed to this package as it is.
 */
export interface MessagingTables extends OutboxDatabase, ProcessedMessageDatabase {}
