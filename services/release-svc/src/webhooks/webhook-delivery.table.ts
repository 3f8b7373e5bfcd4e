import type { Generated } from 'kysely';

/** `release.webhook_delivery`: a code-host webhook delivery, recorded once by its delivery id (`X-GitHub-Delivery`). */
export interface WebhookDeliveryTable {
  id: string;
  event: string;
  action: string | null;
  /** What it did: `applied`, `ignored` (an event or job this service does not follow). */
  outcome: string;
  received_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    webhook_delivery: WebhookDeliveryTable;
  }
}
