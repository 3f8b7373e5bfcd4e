import type { OutboxDatabase } from '@switchyard/messaging';

/** The PostgreSQL schema config-svc owns; no other service reads it. */
export const CONFIG_SCHEMA = 'config';

/**
 * Tables of the `config` schema as Kysely sees them (queries run through `withSchema(CONFIG_SCHEMA)`): the
 * service's own and the transactional outbox (`OutboxDatabase` of `@switchyard/messaging`).
 * Each table adds itself here from its `*.table.ts`, beside the repository that owns it (`declare module`), so
 * `db/`, below every other folder, imports none of them.
 */
export interface ConfigDatabase extends OutboxDatabase {}
