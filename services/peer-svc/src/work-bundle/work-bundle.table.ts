import type { Generated } from 'kysely';

/**
 * `peer.work_bundle`: work bundles accepted while no broker is configured (no `AMQP_URL`), oldest first by `id`, until
 * an operator takes them (`GET /emissary/client-places/{name}/bundles`).
 */
export interface WorkBundleTable {
  /** `bigint` identity: read as a decimal string. */
  id: Generated<string>;
  /** The client place's queue name. */
  queue: string;
  /** The bundle as JSON text, exactly as it would have been sent to RabbitMQ. */
  body: string;
  enqueued_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface PeerDatabase {
    work_bundle: WorkBundleTable;
  }
}
