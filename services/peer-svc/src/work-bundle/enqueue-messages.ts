import { neutralise } from '../directory/neutralise.ts';

/**
 * Messages of `POST /WorkSpaceClientEnqueue.action` (seed `002`, "Errors" and "Handlers without a route";
 * reference `emissary.md` §2.4, `WorkSpaceClientEnqueueAction` / `WorkSpaceAdapter` at `40260b1ec`).
 */

/** The seed's invalid-argument message for a `tpObj` that does not decode or validate (exact text). */
export const CANNOT_DESERIALIZE_WORK_BUNDLE = 'Cannot deserialize WorkBundle';

/** Start of the seed's message for an unknown client place; the client name follows. */
export const NO_CLIENT_PLACE_PREFIX = 'No client place found using name ';

/** The seed's message when the client name (`pickUpClientName`) is missing (upstream adapter path). */
export const NO_PLACE_SPECIFIED = "No 'place' specified";

/** Upstream's 200 body after a successful enqueue (reference §2.4). */
export const ENQUEUE_SUCCEEDED = 'Successful add to the PickUpPlaceClient queue';

/** Upstream's body when the queue refused the bundle (reference §2.4; unreachable upstream). */
export const ENQUEUE_QUEUE_FULL = 'WorkSpaceClientEnqueWorker failed, queue full';

/** Form parameter names (reference §2.4, `WorkSpaceAdapter` constants). */
export const CLIENT_NAME_PARAMETER = 'pickUpClientName';
/** Form parameter carrying the work bundle. */
export const WORK_BUNDLE_PARAMETER = 'tpObj';

/**
 * `No client place found using name <client_name>`, the name neutralised (no CR/LF, no markup, bounded)
 * so the message can be echoed in a `text/plain` body, e.g. `noClientPlaceMessage('a<b')` →
 * `No client place found using name a&lt;b`.
 */
export function noClientPlaceMessage(clientName: string | null | undefined): string {
  return NO_CLIENT_PLACE_PREFIX + neutralise(clientName);
}
