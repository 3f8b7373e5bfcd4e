import { neutralise } from '../directory/neutralise.policy.ts';

/**
 * Messages of `POST /WorkSpaceClientEnqueue.action`, as upstream wrote them (https://github.com/NationalSecurityAgency/emissary:
 * `src/main/java/emissary/server/mvc/internal/WorkSpaceClientEnqueueAction.java` and
 * `src/main/java/emissary/server/mvc/adapters/WorkSpaceAdapter.java`; the statuses are this service's, see its README).
 */

/** Upstream's invalid-argument message for a `tpObj` that does not deserialize (`EnqueRequestBean.setPaths`; exact text). */
export const CANNOT_DESERIALIZE_WORK_BUNDLE = 'Cannot deserialize WorkBundle';

/** Start of upstream's message for an unknown client place (`inboundEnque`); the client name follows. */
export const NO_CLIENT_PLACE_PREFIX = 'No client place found using name ';

/** Upstream's message when the client name (`pickUpClientName`) is missing (`EnqueRequestBean`). */
export const NO_PLACE_SPECIFIED = "No 'place' specified";

/** Upstream's 200 body after a successful enqueue (`WorkSpaceClientEnqueueAction`). */
export const ENQUEUE_SUCCEEDED = 'Successful add to the PickUpPlaceClient queue';

/**
 * Upstream's body when the queue refused the bundle (`WorkSpaceClientEnqueueAction`); here (503): the broker did not
 * confirm, or the queue in the database is full.
 */
export const ENQUEUE_QUEUE_FULL = 'WorkSpaceClientEnqueWorker failed, queue full';

/** Form parameter names (`WorkSpaceAdapter.CLIENT_NAME` / `WORK_BUNDLE_OBJ`). */
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
