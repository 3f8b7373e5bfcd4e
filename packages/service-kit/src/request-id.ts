import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header that carries a request's id between the gateway, the services and the client. */
export const REQUEST_ID_HEADER = 'x-request-id';

const acceptable = /^[\w.:@/+=-]{1,128}$/;

/**
 * The id of a request: the incoming `x-request-id` when it is a plain token of at most 128 characters
 * (letters, digits and `_ . : @ / + = -`), otherwise a new random UUID. Untrusted ids that could
 * inject log lines or headers are replaced, never echoed.
 */
export function requestIdOf(req: IncomingMessage): string {
  return requestIdFrom(req.headers[REQUEST_ID_HEADER]);
}

/** {@link requestIdOf} for a header value already read: kept when acceptable, else a new UUID. */
export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && acceptable.test(incoming) ? incoming : randomUUID();
}
