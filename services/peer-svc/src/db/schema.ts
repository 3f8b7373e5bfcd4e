import type { OutboxDatabase } from '@switchyard/messaging';
import type { Database } from '@switchyard/service-kit';

/** The PostgreSQL schema peer-svc owns; no other service reads it. */
export const PEER_SCHEMA = 'peer';

/** Tables of the `peer` schema, as Kysely sees them (queries run through `withSchema(PEER_SCHEMA)`), the outbox included.
 * Each table adds itself here from its `*.table.ts`, beside the repository that owns it (`declare module`), so
 * `db/`, below every other folder, imports none of them.
 */
export interface PeerDatabase extends OutboxDatabase {}

/** The Kysely handle of the `peer` schema (a transaction on it fits too). */
export type PeerDb = Database<PeerDatabase>['db'];
