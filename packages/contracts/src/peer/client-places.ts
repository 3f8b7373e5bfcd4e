import { z } from 'zod';

/** Bundles `GET /emissary/client-places/{name}/bundles` takes when `take` is absent. */
export const DEFAULT_BUNDLES_TAKEN = 10;
/** Most bundles one `GET /emissary/client-places/{name}/bundles` takes. */
export const MAX_BUNDLES_TAKEN = 100;

/** One work bundle taken off a client place's queue. */
export const TakenWorkBundle = z.object({
  /** When it was enqueued (RFC 3339; to the second on RabbitMQ), `null` when the message did not say. */
  enqueuedAt: z.iso.datetime({ offset: true }).nullable(),
  /**
   * The work bundle as it was enqueued (peer-svc's JSON work bundle: `bundleId`, `workUnits`, …); a message on the
   * queue that is not JSON, put there by another producer, as its text.
   */
  workBundle: z.union([z.record(z.string(), z.unknown()), z.string()]),
});
export type TakenWorkBundle = z.infer<typeof TakenWorkBundle>;

/** The answer of `GET /emissary/client-places/{name}/bundles`: the client place as named, its queue, the bundles taken, oldest first. */
export const TakenWorkBundles = z.object({
  clientPlace: z.string(),
  queue: z.string(),
  bundles: z.array(TakenWorkBundle).max(MAX_BUNDLES_TAKEN),
});
export type TakenWorkBundles = z.infer<typeof TakenWorkBundles>;
