import type { MessagingTables } from '@switchyard/messaging';

/** The PostgreSQL schema release-svc owns; no other service reads it. */
export const RELEASE_SCHEMA = 'release';

/**
 * The `release` schema: release-svc's tables, each typed beside the repository that owns it, and the outbox and
 * processed-message tables of `@switchyard/messaging`.
 * Each table adds itself here from its `*.table.ts`, beside the repository that owns it (`declare module`), so
 * `db/`, below every other folder, imports none of them.
 */
export interface ReleaseDatabase extends MessagingTables {}
